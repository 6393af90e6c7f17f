"""Button, blinds and missed-blind buttons (R33-R36, R19), straddles (R40) and penalty sit-outs
(R55, R57): pure rules with no Flask, no database and no clock. See ``docs/blinds.md``."""
