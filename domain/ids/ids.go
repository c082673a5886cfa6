// Package ids holds the typed identifiers that several domain packages
// share, at the bottom floor so that any of them can use one without
// importing another: a player's id travels as a UserID from the account to
// the ledger's wallet and back, never as a "user:<id>" string to slice.
package ids

import "strconv"

// UserID is a player's id (accounts' primary key); valid ids are positive.
type UserID int64

// String renders the id in decimal.
func (u UserID) String() string { return strconv.FormatInt(int64(u), 10) }

// ParseUserID reads a decimal user id; it reports false unless s is a
// positive int64 in strconv.ParseInt's base-10 syntax.
func ParseUserID(s string) (UserID, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	return UserID(n), true
}
