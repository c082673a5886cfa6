// Package protection holds the responsible-gambling rules of Pokertote:
// limits a player sets on their own deposits, stakes and net losses per
// day, week and month; time-outs and self-exclusions the player chooses and
// cannot revoke; and the exclusion register kept by admins.
//
// # Where the rules are enforced
//
// Every stake (a totalizator bet, a Casino Hold'em ante, bonus or bet) and
// every deposit is a ledger transfer. The ledger stores call a Guard for each
// transfer inside the very transaction that moves the money (persistence's
// in-transaction poster; ledgertest.MemStore for the in-memory twin), so a
// refused stake leaves no bet behind and no interleaving of two stakes can
// exceed a limit: the per-player per-period counters are moved by guarded
// updates in that same transaction. Classify says what a transfer means to
// a player (a deposit, a stake, a return); Decide applies the rules.
//
// # Calendar
//
// Periods follow the operator's calendar (TIME_ZONE, Asia/Almaty by
// default): a day starts at local midnight, a week on Monday, a month on its
// first day. Net loss in a period is stakes minus returns (payouts, refunds)
// in that period; a stake counts as lost until something comes back.
//
// # Exclusions and money
//
// A player under a time-out, a self-exclusion or an entry of the register
// may sign in, see their history and withdraw, but may neither stake nor
// deposit: common regulation (UKGC RTS 12, the Kazakh gambling law's
// self-restriction register) forbids taking new money from someone who asked
// to stop, and refusing deposits during a time-out as well keeps the cooling
// period real.
package protection
