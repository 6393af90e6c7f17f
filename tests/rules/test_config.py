"""The embedded default (README): SQLite in the instance folder, which is made when a
fresh checkout has none, with or without ROOMOPS_SECRET_KEY (whose absence made it before)."""

from __future__ import annotations

from roomops import config


def test_the_embedded_database_makes_its_instance_folder(tmp_path, monkeypatch):
    folder = tmp_path / "fresh" / "instance"
    monkeypatch.setattr(config, "INSTANCE", folder)
    monkeypatch.setenv("ROOMOPS_SECRET_KEY", "a key of the deployment's own")
    monkeypatch.delenv("ROOMOPS_DATABASE_URL", raising=False)
    settings = config.Settings()
    assert settings.database_url == f"sqlite:///{(folder / 'roomops.db').absolute()}"
    assert folder.is_dir() and not (folder / "secret_key").exists()
