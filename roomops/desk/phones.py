"""The desk's blocked numbers (R12): a number refused on the phone page, with why; lifted, never
deleted, each change audited (R60). Attached to the desk blueprint (``roomops.desk.install``)."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from roomops.desk.forms import parse
from roomops.desk.views import _room, bp
from roomops.remote import services as remote
from roomops.schemas import BlockPhone
from roomops.web.uow import db, run


@bp.get("/desk/phones")
def phones() -> str:
    session = db()
    room = _room(session)
    return render_template("desk/phones.html", room=room, blocks=remote.blocks(session, room.id))


@bp.post("/desk/phones")
def block_phone() -> Response:
    body = parse(BlockPhone, request.form)
    row = run(remote.block, phone=body.phone, reason=body.reason)
    flash(f"Blocked {row.phone}: its remote entries are refused and its lists left (R12).", "ok")
    return redirect(url_for("desk.phones"), code=303)


@bp.post("/desk/phones/<int:block_id>/lift")
def lift_block(block_id: int) -> Response:
    row = run(remote.lift, block_id)
    flash(f"Lifted the block on {row.phone} (R12).", "ok")
    return redirect(url_for("desk.phones"), code=303)
