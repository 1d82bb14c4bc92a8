// What the table's event log (S.events, the server's events in order) says: the digest the
// screens draw from (table.js, podium.js, finale.js; net.js for the hand's summary) and whether
// the game is over. It only reads, and lives apart from net.js so that the screens need not
// import the connection.
import { S } from "./state.js";

export function gameOverEvent() {
  return S.events.find((e) => e.type === "game_over") || null;
}

// What the event log says about this hand's tricks, the last one of the hand before,
// the sheet's rows and the end. A finished trick keeps what the server said of it:
// winner, lead, reason, bonus and its reason.
export function digest() {
  const d = { hand: 0, myBid: null, tricks: [], lastHandTrick: null, rows: [], over: null, revealed: null };
  let cur = null;
  for (const ev of S.events) {
    if (ev.type === "drawn") {
      if (d.tricks.length) d.lastHandTrick = { hand: d.hand, ...d.tricks[d.tricks.length - 1] };
      Object.assign(d, { hand: ev.hand, myBid: null, revealed: null, tricks: [] });
      cur = null;
    } else if (ev.type === "bid_placed") {
      if (ev.seat === S.seat && ev.bid !== null) d.myBid = ev.bid;
    } else if (ev.type === "bids_revealed") {
      d.revealed = ev.bids;
    } else if (ev.type === "rolled") {
      if (!cur || cur.no !== ev.trick) {
        cur = { no: ev.trick, rolls: [], winner: null };
        d.tricks.push(cur);
      }
      cur.rolls.push({ seat: ev.seat, die: ev.die, face: ev.face });
    } else if (ev.type === "trick_won" && cur) {
      Object.assign(cur, { winner: ev.seat, lead: ev.lead, reason: ev.reason, bonusWhy: ev.bonus_why });
    } else if (ev.type === "hand_scored") {
      d.rows.push(ev);
    } else if (ev.type === "game_over") {
      d.over = ev;
    }
  }
  return d;
}
