package ledgerwrite

import (
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
)

// WritePG is the ledger's part of a Postgres batch write, as
// data-modifying CTEs for the caller's WITH (its own CTEs may stand before
// and after, its SELECT reads theirs):
//
//	tr(id, idempotency_key)                      the transfers (transfersPG)
//	bal(id)                                      the balances set (balancesPG)
//	esc(id, ref, balance)                        with escrows: the amounts added to escrows (addToEscrowsPG)
//	ent(id, transfer_id, account_id, balance_after)  the entries (entriesPG, entriesEscrowPG)
//
// Its parameters are named; PGRows.Args fills them.
func WritePG(escrows bool) string {
	if escrows {
		return "tr AS (" + transfersPG + "), bal AS (" + balancesPG + "), esc AS (" + addToEscrowsPG + "), ent AS (" + entriesEscrowPG + ")"
	}
	return "tr AS (" + transfersPG + "), bal AS (" + balancesPG + "), ent AS (" + entriesPG + ")"
}

// PGRows are the rows of one WritePG statement, as the arrays it takes, in
// the order they are added: transfers and entries in posting order,
// balances and escrows in the ledger's lock order.
type PGRows struct {
	trKeys, trKinds, trMemos []string
	trHashes                 [][]byte
	balIDs, balValues        []int64
	escRefs                  []string
	escAmounts               []int64
	entKeys, entRefs         []string
	entAccounts, entAmounts  []int64
	entAfters, entTails      []int64
}

// Transfer adds t's transfer row (its entries are added one by one).
func (r *PGRows) Transfer(t ledger.Transfer) {
	h := t.RequestHash()
	r.trKeys, r.trHashes = append(r.trKeys, t.IdempotencyKey), append(r.trHashes, h[:])
	r.trKinds, r.trMemos = append(r.trKinds, string(t.Kind)), append(r.trMemos, t.Memo)
}

// Balance sets account id's balance to b.
func (r *PGRows) Balance(id int64, b money.Amount) {
	r.balIDs, r.balValues = append(r.balIDs, id), append(r.balValues, int64(b))
}

// AddToEscrow adds amount to the escrow ref (WritePG with escrows).
func (r *PGRows) AddToEscrow(ref string, amount money.Amount) {
	r.escRefs, r.escAmounts = append(r.escRefs, ref), append(r.escAmounts, int64(amount))
}

// Entry adds an entry of the transfer key on account id, with the
// account's balance after it.
func (r *PGRows) Entry(key string, account int64, amount, after money.Amount) {
	r.entry(key, account, "", amount, after, 0)
}

// EscrowEntry adds an entry of the transfer key on the escrow ref (WritePG
// with escrows): its balance after is the escrow's balance after the
// statement less tail, the amounts of the escrow's later entries in it.
func (r *PGRows) EscrowEntry(key, ref string, amount, tail money.Amount) {
	r.entry(key, 0, ref, amount, 0, tail)
}

func (r *PGRows) entry(key string, account int64, ref string, amount, after, tail money.Amount) {
	r.entKeys, r.entAccounts, r.entRefs = append(r.entKeys, key), append(r.entAccounts, account), append(r.entRefs, ref)
	r.entAmounts, r.entAfters, r.entTails = append(r.entAmounts, int64(amount)), append(r.entAfters, int64(after)), append(r.entTails, int64(tail))
}

// Transfers, Balances and Entries count the rows added.
func (r *PGRows) Transfers() int { return len(r.trKeys) }

// Balances counts the balances set.
func (r *PGRows) Balances() int { return len(r.balIDs) }

// Entries counts the entries added.
func (r *PGRows) Entries() int { return len(r.entKeys) }

// Args sets WritePG's parameters in args, the rows stamped at.
func (r *PGRows) Args(at time.Time, args pgx.NamedArgs) {
	args["at"] = at
	args["tr_keys"], args["tr_hashes"], args["tr_kinds"], args["tr_memos"] = r.trKeys, r.trHashes, r.trKinds, r.trMemos
	args["bal_ids"], args["bal_values"] = r.balIDs, r.balValues
	args["esc_refs"], args["esc_amounts"] = r.escRefs, r.escAmounts
	args["ent_keys"], args["ent_accounts"], args["ent_refs"] = r.entKeys, r.entAccounts, r.entRefs
	args["ent_amounts"], args["ent_afters"], args["ent_tails"] = r.entAmounts, r.entAfters, r.entTails
}
