"""R61, the route matrix: the one right each page and API route needs, checked before any view
runs. With ``roomops.actors.ROLE_RIGHTS`` (the rights each role carries) it is the whole of who
may open what; the tests read both (tests/http/test_access_matrix.py). A route missing here is
refused to everyone but the public (closed by default); the services check their right again.
"""

from __future__ import annotations

from flask import Flask, jsonify, request
from flask_login import current_user
from werkzeug.wrappers import Response

from roomops.errors import Forbidden
from roomops.security_log import security_event
from roomops.web.login import unauthorized

# No log-in: the wall board, the phone page, the log-in page, the load balancer's health check,
# static files, the API's description, the public live-games feed, the board's QR code and pushed
# stream, and Twilio's delivery reports (signed: roomops/web/hooks.py).
PUBLIC = frozenset({"auth.login", "board.index", "board.room", "board.live", "board.qr", "push.board_events",
                    "health.health", "static", "api.openapi_json", "api.live_games", "hooks.twilio_status",
                    # R12: a player's own entries, from the phone page and their personal link
                    "board.join", "board.join_code", "board.me", "board.link", "board.leave",
                    "api.join_remote", "api.confirm_remote", "api.my_entries", "api.leave_remote"})
# Any logged-in person, whatever their roles: their own screen, account and session.
ANY_STAFF = frozenset({"auth.root", "auth.logout", "auth.switch_room", "account.index", "account.password"})

_FLOOR = """
desk.index desk.fragment desk.forms desk.entry_history desk.return_requirement desk.next_for_seat
desk.absence_note
desk.add_player desk.bar desk.break_table desk.change_game desk.change_seat desk.check_in
desk.claim desk.claim_move desk.close_game desk.close_table desk.come_back desk.decline
desk.give_penalty desk.grant_break desk.join desk.leave desk.mark_away desk.missed_big_blind
desk.move_player desk.must_move desk.no_playover desk.offer desk.open_game desk.open_table
desk.remove desk.reorder desk.seat desk.start_playover desk.stop_playover desk.lock_up
desk.end_lockup desk.phones desk.block_phone desk.lift_block
api.room_snapshot api.balance api.entry_history api.next_penalty api.return_requirement
api.absence_note api.add_player api.bar_pair api.break_table api.change_game api.change_seat
api.check_in api.claim_move api.claim_offer api.close_game api.close_table api.come_back
api.decline_offer api.give_penalty api.grant_break api.join_list api.leave_seat api.make_offer
api.mark_away api.missed_big_blind api.move_player api.must_move api.no_playover api.open_game
api.open_table api.remove_entry api.reorder_entry api.seat_player api.start_playover
api.stop_playover api.lock_up api.end_lockup api.ask_seat_change api.withdraw_seat_change
api.claim_seat_change api.swap_seats
desk.ask_seat_change desk.withdraw_seat_change desk.claim_seat_change desk.swap_seats
staff_push.desk_events
jackpots.index jackpots.scheme jackpots.prize
api.jackpot_schemes api.jackpot_pool api.jackpot_claims
"""
_CASH = """
cage.index cage.slips cage.report cage.report_csv cage.today_report cage.fees_page
cage.cash_out cage.close cage.collect_fee cage.collect_table cage.counts cage.record_movement
cage.request_transit cage.step staff_push.cage_events cage.jackpot_box api.count_jackpot_box
api.open_transits api.transit_numbers api.fees_due api.day_report api.close_day
api.collect_session_fee api.collect_table_fees api.post_add_on api.post_buy_in api.post_cash_out
api.post_rebuy api.record_day_counts api.request_transit api.deliver_transit
"""
_AUTHORISE = """
cage.reverse api.reverse_entry api.confirm_transit_funds api.dispatch_transit api.cancel_transit
jackpots.adjust jackpots.reverse jackpots.pay jackpots.refuse
api.adjust_pool api.reverse_pool_row api.pay_jackpot_claim api.refuse_jackpot_claim
"""
_DEAL = """
dealer.index dealer.table dealer.live dealer.rake_limit dealer.record dealer.rake dealer.down
dealer.drop dealer.deliver dealer.check_in dealer.check_out staff_push.dealer_events
dealer.jackpot_drop dealer.jackpot_claim api.record_jackpot_drop api.make_jackpot_claim
api.table_hands api.rake_limit api.list_downs api.record_hand api.record_rake api.record_down
api.record_drop api.deliver_transit_at_table
api.check_in_me api.check_out_me
"""
# R62-R64: the dealer coordinator's roster, plan and overrides (the screens' lines first, then the API's)
_DEALERS = """
dealers.index dealers.live dealers.check_in dealers.check_out dealers.override
api.dealer_roster api.dealer_plan api.check_in_dealer api.check_out_dealer api.name_next_dealer
api.dealer_downs
tokes.index tokes.report tokes.report_csv tokes.count
api.toke_report api.count_tokes
"""
_FIGURES = "figures.index figures.chart_csv api.figures"  # R80: the manager's figures
_POLICY = ("desk.policy api.get_policy api.change_policy jackpots.start jackpots.seed jackpots.end "
           "api.start_scheme api.end_scheme api.seed_pool")
_AUDIT = "audit.index api.audit_trail"
_STAFF = "staff.index staff.create staff.roles staff.password staff.active staff.clear_lockout"

RIGHTS: dict[str, str] = {
    endpoint: right
    for right, endpoints in (("floor", _FLOOR), ("cash", _CASH), ("authorise", _AUTHORISE),
                             ("deal", _DEAL), ("dealers", _DEALERS), ("figures", _FIGURES),
                             ("policy", _POLICY), ("audit", _AUDIT),
                             ("staff", _STAFF))
    for endpoint in endpoints.split()
}


def api_unauthorized(message: str) -> Response:
    """The API's 401: JSON naming R61, with the scheme to use; in the security log."""
    security_event("access.refused", status=401, reason=message)
    resp = jsonify(error=message, rule="R61")
    resp.status_code = 401
    resp.headers["WWW-Authenticate"] = 'Bearer realm="roomops"'
    return resp


def check() -> Response | None:
    """Before every request: public routes pass; anyone else logs in first (the API: 401); then
    the route's right (R61), refused with 403 naming what is needed."""
    endpoint = request.endpoint
    if endpoint is None or endpoint in PUBLIC:
        return None  # a 404 or 405 answers for itself
    if not current_user.is_authenticated:
        if request.path.startswith("/api/"):
            return api_unauthorized("log in, or send Authorization: Bearer <token>")
        return unauthorized()
    right = RIGHTS.get(endpoint, "nobody") if endpoint not in ANY_STAFF else None
    if right is not None and not current_user.can(right):
        raise Forbidden(f"{current_user.actor().label} ({current_user.roles_named}) may not open "
                        f"this page: it needs the {right} right", "R61")
    return None


def install(app: Flask) -> None:
    app.before_request(check)
