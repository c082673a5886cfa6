package account

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"

	"github.com/pokertote/pokertote/domain/errs"
)

// Argon2Params are the cost parameters of Argon2id password hashing.
type Argon2Params struct {
	// Memory in KiB.
	Memory uint32
	// Time is the number of passes over the memory.
	Time    uint32
	Threads uint8
	SaltLen uint32
	KeyLen  uint32
}

// DefaultArgon2Params are OWASP's recommended Argon2id parameters
// (m=19456 KiB, t=2, p=1) with a 16-byte salt and a 32-byte key.
func DefaultArgon2Params() Argon2Params {
	return Argon2Params{Memory: 19456, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}
}

// Validate refuses parameters weaker than OWASP's cheapest recommended
// configuration (m=7168 KiB with t=5, i.e. memory × passes of at least
// 35840), salts under 16 bytes and keys under 32 bytes, and costs too high
// to be sane.
func (p Argon2Params) Validate() error {
	if p.Memory < 7168 || p.Time < 1 || uint64(p.Memory)*uint64(p.Time) < 35840 ||
		p.Threads < 1 || p.SaltLen < 16 || p.KeyLen < 32 || !p.sane() {
		return errs.R(errs.Invalid, ReasonWeakPasswordHashing, "argon2id parameters %+v are below the OWASP minimum or absurd", p)
	}
	return nil
}

// sane bounds every parameter, so that a tampered or corrupt stored hash
// cannot make a login allocate gigabytes or spin for minutes.
func (p Argon2Params) sane() bool {
	return p.Memory >= 8*uint32(p.Threads) && p.Memory <= 1<<20 && p.Time >= 1 && p.Time <= 32 &&
		p.Threads >= 1 && p.Threads <= 64 && p.SaltLen >= 8 && p.SaltLen <= 64 && p.KeyLen >= 16 && p.KeyLen <= 128
}

// PHC is a parsed Argon2id hash in the PHC string format
// "$argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>" (salt and key in unpadded
// standard base64).
type PHC struct {
	Params Argon2Params
	Salt   []byte
	Key    []byte
}

var phcB64 = base64.RawStdEncoding.Strict()

// String formats the hash as a PHC string.
func (h PHC) String() string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version,
		h.Params.Memory, h.Params.Time, h.Params.Threads, phcB64.EncodeToString(h.Salt), phcB64.EncodeToString(h.Key))
}

// ParsePHC reads an Argon2id PHC string. It accepts only the canonical form
// that PHC.String writes (version 19, parameters in the order m, t, p, no
// leading zeros, unpadded base64) with parameters within sane bounds; anything
// else is an Internal error, since stored hashes are never user input.
func ParsePHC(s string) (PHC, error) {
	bad := func(why string) (PHC, error) {
		return PHC{}, errs.E(errs.Internal, "stored password hash is malformed: %s", why)
	}
	if len(s) > 512 {
		return bad("too long")
	}
	parts := strings.Split(s, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return bad("not an argon2id PHC string")
	}
	if parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return bad("unsupported version")
	}
	var p Argon2Params
	kv := strings.Split(parts[3], ",")
	if len(kv) != 3 {
		return bad("parameters")
	}
	m, ok1 := phcParam(kv[0], "m=", 32)
	t, ok2 := phcParam(kv[1], "t=", 32)
	th, ok3 := phcParam(kv[2], "p=", 8)
	if !ok1 || !ok2 || !ok3 {
		return bad("parameters")
	}
	p.Memory, p.Time, p.Threads = uint32(m), uint32(t), uint8(th)
	salt, err1 := phcB64.DecodeString(parts[4])
	key, err2 := phcB64.DecodeString(parts[5])
	if err1 != nil || err2 != nil {
		return bad("base64")
	}
	p.SaltLen, p.KeyLen = uint32(len(salt)), uint32(len(key))
	if !p.sane() {
		return bad("parameters out of bounds")
	}
	h := PHC{Params: p, Salt: salt, Key: key}
	if h.String() != s {
		return bad("not canonical")
	}
	return h, nil
}

func phcParam(s, prefix string, bits int) (uint64, bool) {
	v, ok := strings.CutPrefix(s, prefix)
	if !ok || v == "" || (len(v) > 1 && v[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(v, 10, bits)
	return n, err == nil
}

// PasswordHasher hashes and verifies passwords with Argon2id.
type PasswordHasher struct {
	params Argon2Params
}

// NewPasswordHasher returns a hasher using p for new hashes; p must pass
// Validate. Existing hashes are verified with their own stored parameters,
// so raising p later upgrades users on their next login (see NeedsRehash).
func NewPasswordHasher(p Argon2Params) (*PasswordHasher, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &PasswordHasher{params: p}, nil
}

// Hash returns the PHC string of password with a fresh random salt.
func (h *PasswordHasher) Hash(password string) string {
	salt := make([]byte, h.params.SaltLen)
	_, _ = rand.Read(salt) // crypto/rand.Read never fails (it crashes the program instead)
	key := argon2.IDKey([]byte(password), salt, h.params.Time, h.params.Memory, h.params.Threads, h.params.KeyLen)
	return PHC{Params: h.params, Salt: salt, Key: key}.String()
}

// Verify reports whether password matches the stored PHC string, comparing
// keys in constant time. A malformed stored hash is an Internal error.
func (h *PasswordHasher) Verify(encoded, password string) (bool, error) {
	phc, err := ParsePHC(encoded)
	if err != nil {
		return false, err
	}
	p := phc.Params
	key := argon2.IDKey([]byte(password), phc.Salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return subtle.ConstantTimeCompare(key, phc.Key) == 1, nil
}

// NeedsRehash reports whether the stored hash was made with parameters other
// than the hasher's current ones (or cannot be parsed), so that it should be
// replaced after the next successful login.
func (h *PasswordHasher) NeedsRehash(encoded string) bool {
	phc, err := ParsePHC(encoded)
	return err != nil || phc.Params != h.params
}
