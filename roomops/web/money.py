"""The request's room's money (R32, ``roomops.money``): how every amount on its pages, in its
forms and in its refusals is written and read."""

from __future__ import annotations

from typing import Any

from flask import Flask, g
from flask_login import current_user
from jinja2 import pass_context
from jinja2.runtime import Context

from roomops.games.terms import (
    Terms,
    game_fee_text,
    game_rake_text,
    percent_text,
    told_before_sitting,
)
from roomops.jackpots.terms import Posting, headline, rules
from roomops.money import Money
from roomops.rooms.models import Room
from roomops.web.uow import db

# a page or refusal of no room (the login page) names no amount; should one, it reads in pounds
NO_ROOM = Money("GBP")


def use_room(room: Room) -> Money:
    """The room a public page shows (the board) is the request's room."""
    money = g.money = room.money
    return money


def room_money() -> Money:
    """The money of the room the request is for: the page's (``use_room``), else the logged-in
    staff member's; read once a request."""
    money: Money | None = g.get("money")
    if money is None:
        user = current_user._get_current_object()  # once: each use of the proxy looks it up
        room = db().get(Room, user.room_id) if user.is_authenticated else None
        money = g.money = room.money if room is not None else NO_ROOM
    return money


def install(app: Flask) -> None:
    """Templates write amounts in the request's room's money: ``|money`` ('£1,234.50'),
    ``|amount`` (an input's value, '1234.50'), ``stakes(game)`` ('1/2'), and the terms a player
    is told (R40, R51, R53)."""
    # ``g`` outlives the request where an app context was pushed around it (a script, a test)
    app.teardown_request(lambda _exc: g.pop("money", None))
    # ``pass_context``: Jinja would otherwise write a constant's amount into the compiled
    # template once, in the money of the first room that rendered it
    @app.template_filter("money")
    @pass_context
    def _money(_ctx: Context, amount: int | None) -> str:
        return "" if amount is None else room_money()(amount)

    @app.template_filter("amount")
    @pass_context
    def _amount(_ctx: Context, amount: int | None) -> str:
        return room_money().field(amount)

    @app.template_global("stakes")
    def _stakes(game: Any) -> str:
        return room_money().stakes(game.small_blind, game.big_blind, game.ante)

    @app.template_global("told_before_sitting")
    def _told(game: Terms) -> str:
        return told_before_sitting(room_money(), game)

    @app.template_global("percent_text")
    def _percent(bp: int) -> str:
        return percent_text(bp, room_money().decimal_sign)

    @app.template_global("fees_in_force")
    def _fees(game: Terms) -> str:
        return game_fee_text(room_money(), game)

    @app.template_global("jackpot_headline")
    def _jackpot_headline(posting: Posting) -> str:
        return headline(posting, room_money())

    @app.template_global("jackpot_rules")
    def _jackpot_rules(posting: Posting) -> list[str]:
        """R67: a scheme's posted rules, a line each (the staff screens' words)."""
        return rules(posting, room_money())

    @app.template_global("rake_text")
    def _rake(game: Terms) -> str:
        return game_rake_text(room_money(), game)
