package account

import (
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/pokertote/pokertote/domain/errs"
)

// Registration is what a new user submits.
type Registration struct {
	Email       string
	Password    string
	Name        string
	DateOfBirth Date
	// AcceptedTerms is the version of the terms the person read and
	// accepted; a player's must be the version in force (Service.Terms).
	AcceptedTerms string
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

// NormalizeEmail trims and lower-cases an email address and checks it:
// net/mail must read it as a bare address (no display name, no angle
// brackets), and on top of that the sane rules of an address a cashier can
// read back over the phone: ASCII only (an internationalized domain is given
// in its xn-- form), at most 254 bytes, a local part of 1 to 64 bytes with
// no quoting, no leading, trailing or doubled dot; a domain of at least two
// labels of letters, digits and inner hyphens (1 to 63 each), with an
// alphabetic (or xn--) top-level label, and no IP literal. The whole address
// is lower-cased: mailbox names are case-insensitive at every provider
// players use, and one person must not hold two accounts as Bob@x and bob@x.
func NormalizeEmail(s string) (string, error) {
	bad := errs.R(errs.Invalid, ReasonInvalidEmail, "that is not a valid email address")
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || len(s) > MaxEmailLen {
		return "", bad
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return "", bad
		}
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Name != "" || addr.Address != s {
		return "", bad
	}
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 || !saneLocalPart(s[:at]) || !saneDomain(s[at+1:]) {
		return "", bad
	}
	return s, nil
}

// saneLocalPart: 1 to 64 bytes of atext and inner single dots (no quoted
// strings, which net/mail would accept).
func saneLocalPart(l string) bool {
	if l == "" || len(l) > 64 || l[0] == '.' || l[len(l)-1] == '.' || strings.Contains(l, "..") {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(isAlnum(c) || strings.IndexByte(".!#$%&'*+/=?^_`{|}~-", c) >= 0) {
			return false
		}
	}
	return true
}

// saneDomain: two or more DNS labels, letters, digits and inner hyphens,
// the last alphabetic (2 or more letters) or punycode.
func saneDomain(d string) bool {
	labels := strings.Split(d, ".")
	if len(labels) < 2 || len(d) > 253 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			if !isAlnum(l[i]) && l[i] != '-' {
				return false
			}
		}
	}
	tld := labels[len(labels)-1]
	if strings.HasPrefix(tld, "xn--") {
		return true
	}
	if len(tld) < 2 {
		return false
	}
	for i := 0; i < len(tld); i++ {
		if tld[i] < 'a' || tld[i] > 'z' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') }

// EmailSkeleton is the form in which two addresses that look alike are
// equal: lower case, with the ASCII look-alikes of the Unicode confusables
// data (UTS #39) folded ("rn" reads as "m", "vv" as "w", "cl" as "d", the
// digits 0 and 1 as "o" and "l", "i" as "l") and the dots, hyphens and
// underscores that a reader's eye skips removed. Addresses are ASCII (see
// NormalizeEmail), so this covers every look-alike they can hold. Used to
// refuse an account whose address impersonates an admin's.
func EmailSkeleton(email string) string {
	s := strings.ToLower(email)
	s = strings.NewReplacer("rn", "m", "vv", "w", "cl", "d", "0", "o", "1", "l", "i", "l", "|", "l",
		".", "", "-", "", "_", "").Replace(s)
	return s
}

// ValidatePassword applies the password policy: valid UTF-8, 10 to 256
// characters. There are no composition rules (NIST SP 800-63B): length is
// what counts.
func ValidatePassword(pw string) error {
	if !utf8.ValidString(pw) {
		return errs.R(errs.Invalid, ReasonInvalidPassword, "the password is not valid text")
	}
	n := utf8.RuneCountInString(pw)
	if n < MinPasswordLen || n > MaxPasswordLen {
		return errs.R(errs.Invalid, ReasonInvalidPassword, "a password has %d to %d characters", MinPasswordLen, MaxPasswordLen)
	}
	return nil
}

// NormalizeName trims a display name, brings it to Unicode NFC (so the
// same name typed on two keyboards is stored once) and checks it has 1 to
// 100 characters of valid UTF-8 with no control characters and no invisible
// format characters: bidirectional overrides, embeddings and isolates
// (which can make a name display as something else) and zero-width
// characters (which make two equal-looking names differ) are refused with
// INVALID_NAME rather than silently dropped, so what the player sees is what
// is stored.
func NormalizeName(s string) (string, error) {
	bad := errs.R(errs.Invalid, ReasonInvalidName, "a name has 1 to %d characters and no control characters", MaxNameLen)
	if !utf8.ValidString(s) {
		return "", bad
	}
	s = norm.NFC.String(strings.TrimSpace(s))
	if s == "" || utf8.RuneCountInString(s) > MaxNameLen {
		return "", bad
	}
	for _, r := range s {
		switch {
		case unicode.IsControl(r):
			return "", bad
		case unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u3164' || r == '\u115f' || r == '\u1160':
			// Cf holds the bidi controls (U+202A-202E, U+2066-2069,
			// U+200E/F, U+061C) and the zero-width ones (U+200B-200D,
			// U+2060, U+FEFF); the Hangul fillers render as nothing too.
			return "", errs.R(errs.Invalid, ReasonInvalidName, "a name cannot hold invisible or text-direction characters")
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
		return errs.R(errs.Invalid, ReasonInvalidDateOfBirth, "that is not a possible date of birth")
	}
	if AgeOn(dob, today) < minAge {
		return errs.R(errs.Invalid, ReasonUnderAge, "you must be at least %d years old to register", minAge)
	}
	return nil
}
