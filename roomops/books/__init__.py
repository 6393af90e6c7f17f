"""The books (R31, R52, R54, R60): the tables whose rows are never changed once written, the
PostgreSQL role the app connects as (``roles``), and the check that would reveal an edit made
outside the app (``verify``). docs/security.md, "The books"."""
