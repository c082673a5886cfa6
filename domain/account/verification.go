package account

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
)

// DocumentType is the kind of identity document submitted for age
// verification.
type DocumentType string

// The accepted documents.
const (
	IDCard         DocumentType = "ID_CARD"
	Passport       DocumentType = "PASSPORT"
	DriversLicense DocumentType = "DRIVERS_LICENSE"
)

// Valid reports whether t is an accepted document type.
func (t DocumentType) Valid() bool { return t == IDCard || t == Passport || t == DriversLicense }

// VerificationStatus is where a user's age verification stands.
type VerificationStatus string

// The verification statuses.
const (
	// NotSubmitted: the user has never submitted a document.
	NotSubmitted VerificationStatus = "NONE"
	// Pending: submitted, waiting for an admin.
	Pending VerificationStatus = "PENDING"
	// Approved: an admin checked the document; the user may stake.
	Approved VerificationStatus = "APPROVED"
	// Rejected: an admin refused the document, with a reason; the user may submit again.
	Rejected VerificationStatus = "REJECTED"
)

// Verification is one submission of an identity document and its outcome.
// The document number itself is never stored: only DocumentHash.
type Verification struct {
	ID           int64
	UserID       int64
	DocumentType DocumentType
	// DocumentHash is the hex HMAC-SHA256 of the normalized document number
	// under the server's pepper (see HashDocumentNumber).
	DocumentHash string
	// DateOfBirth is the date printed on the document.
	DateOfBirth Date
	Status      VerificationStatus
	// Reason is the admin's note; required for a rejection.
	Reason      string
	SubmittedAt time.Time
	// DecidedAt and DecidedBy (an admin's user id) are zero while pending.
	DecidedAt time.Time
	DecidedBy int64
}

// Submission is what a player sends to have their age verified.
type Submission struct {
	DocumentType   DocumentType
	DocumentNumber string
	DateOfBirth    Date
}

// Document number limits, after normalization.
const (
	MinDocumentNumberLen = 5
	MaxDocumentNumberLen = 32
	// MinPepperLen is the minimum length of the document-number pepper.
	MinPepperLen = 32
)

// NormalizeDocumentNumber upper-cases the number and removes spaces and
// dashes ("n 1234-5678" → "N12345678"). The result must be 5 to 32 Latin
// letters and digits; anything else (including look-alike Cyrillic letters)
// is an Invalid error with reason INVALID_DOCUMENT_NUMBER, so one document
// always has one spelling and therefore one hash.
func NormalizeDocumentNumber(s string) (string, error) {
	if len(s) > 4*MaxDocumentNumberLen {
		return "", errs.R(errs.Invalid, ReasonInvalidDocumentNumber, "the document number is too long")
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == ' ' || r == '-' || r == '\t':
			continue
		case r >= 'a' && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
		case (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9'):
			b.WriteRune(r)
		default:
			return "", errs.R(errs.Invalid, ReasonInvalidDocumentNumber, "a document number has only Latin letters and digits")
		}
	}
	n := b.String()
	if len(n) < MinDocumentNumberLen || len(n) > MaxDocumentNumberLen {
		return "", errs.R(errs.Invalid, ReasonInvalidDocumentNumber, "a document number has %d to %d letters and digits", MinDocumentNumberLen, MaxDocumentNumberLen)
	}
	return n, nil
}

// HashDocumentNumber normalizes number and returns the hex HMAC-SHA256 of it
// under pepper, a server secret of at least MinPepperLen bytes kept outside
// the database. The same document gives the same hash whatever its type, so
// duplicate documents across accounts can be found; without the pepper the
// hash cannot be reversed by enumerating the (small) space of numbers.
func HashDocumentNumber(pepper []byte, number string) (string, error) {
	if len(pepper) < MinPepperLen {
		return "", errs.E(errs.Internal, "document pepper must have at least %d bytes", MinPepperLen)
	}
	n, err := NormalizeDocumentNumber(number)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, pepper)
	mac.Write([]byte("pokertote/document-number/v1\x00"))
	mac.Write([]byte(n))
	return hex.EncodeToString(mac.Sum(nil)), nil
}

// RejectionCode is why an admin refused a document, from a fixed list the
// player's client translates. A rejection made with a code stores the code
// as its Reason; a free-text reason (older clients, partners' back offices)
// reads as RejectOther, its text kept for staff.
type RejectionCode string

// The reasons a document may be refused for.
const (
	RejectUnreadable   RejectionCode = "DOCUMENT_UNREADABLE"
	RejectExpired      RejectionCode = "DOCUMENT_EXPIRED"
	RejectNameMismatch RejectionCode = "NAME_MISMATCH"
	RejectDOBMismatch  RejectionCode = "DATE_OF_BIRTH_MISMATCH"
	RejectNotAccepted  RejectionCode = "DOCUMENT_NOT_ACCEPTED"
	RejectDuplicate    RejectionCode = "DUPLICATE_DOCUMENT"
	RejectOther        RejectionCode = "OTHER"
)

// RejectionCodes lists every code, in the order a back office offers them.
var RejectionCodes = []RejectionCode{RejectUnreadable, RejectExpired, RejectNameMismatch, RejectDOBMismatch, RejectNotAccepted, RejectDuplicate, RejectOther}

// RejectionOf reads a rejected verification's code: its Reason when that is
// a code, RejectOther for free text, "" when v is not rejected.
func RejectionOf(v Verification) RejectionCode {
	if v.Status != Rejected {
		return ""
	}
	for _, c := range RejectionCodes {
		if v.Reason == string(c) {
			return c
		}
	}
	return RejectOther
}
