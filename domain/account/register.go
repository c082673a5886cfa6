package account

import (
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pokertote/pokertote/domain/errs"
)

// Registration is what a new user submits.
type Registration struct {
	Email       string
	Password    string
	Name        string
	DateOfBirth Date
}

// Limits on registration fields.
const (
	MaxEmailLen       = 254
	MinPasswordLen    = 10
	MaxPasswordLen    = 256
	MaxNameLen        = 100
	MaxAge            = 130
	maxPasswordBytes  = 4 * MaxPasswordLen
	maxReasonLen      = 500
	reasonRequiredMsg = "a rejection needs a reason of 1 to 500 characters"
)

// NormalizeEmail trims and lower-cases an email address and checks its
// syntax with net/mail: a bare address (no display name, no angle brackets)
// of at most 254 bytes with a domain part. The whole address is lower-cased:
// mailbox names are case-insensitive at every provider players use, and one
// person must not hold two accounts as Bob@x and bob@x.
func NormalizeEmail(s string) (string, error) {
	bad := errs.R(errs.Invalid, "INVALID_EMAIL", "that is not a valid email address")
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || len(s) > MaxEmailLen {
		return "", bad
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Name != "" || addr.Address != s {
		return "", bad
	}
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 || strings.ContainsAny(s, " \t\r\n") {
		return "", bad
	}
	return s, nil
}

// ValidatePassword applies the password policy: valid UTF-8, 10 to 256
// characters. There are no composition rules (NIST SP 800-63B): length is
// what counts.
func ValidatePassword(pw string) error {
	if !utf8.ValidString(pw) {
		return errs.R(errs.Invalid, "INVALID_PASSWORD", "the password is not valid text")
	}
	n := utf8.RuneCountInString(pw)
	if n < MinPasswordLen || n > MaxPasswordLen {
		return errs.R(errs.Invalid, "INVALID_PASSWORD", "a password has %d to %d characters", MinPasswordLen, MaxPasswordLen)
	}
	return nil
}

// NormalizeName trims a display name and checks it has 1 to 100 characters
// of valid UTF-8 with no control characters.
func NormalizeName(s string) (string, error) {
	s = strings.TrimSpace(s)
	bad := errs.R(errs.Invalid, "INVALID_NAME", "a name has 1 to %d characters and no control characters", MaxNameLen)
	if s == "" || !utf8.ValidString(s) || utf8.RuneCountInString(s) > MaxNameLen {
		return "", bad
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return "", bad
		}
	}
	return s, nil
}

// validateDateOfBirth checks dob against today (in the operator's zone): a
// real date, not in the future, not absurdly old, and at least minAge years
// ago. Under age is an Invalid error with reason UNDER_AGE: at registration
// the date of birth is input that disqualifies the request, and the player
// is told at once rather than after an account exists.
func validateDateOfBirth(dob, today Date, minAge int) error {
	if !dob.Valid() || dob.After(today) || AgeOn(dob, today) > MaxAge {
		return errs.R(errs.Invalid, "INVALID_DATE_OF_BIRTH", "that is not a possible date of birth")
	}
	if AgeOn(dob, today) < minAge {
		return errs.R(errs.Invalid, "UNDER_AGE", "you must be at least %d years old to register", minAge)
	}
	return nil
}
