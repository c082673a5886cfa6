package account_test

import (
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
)

// TestDefaultArgon2 is the one test that pays for the real OWASP parameters.
func TestDefaultArgon2(t *testing.T) {
	h, err := account.NewPasswordHasher(account.DefaultArgon2Params())
	if err != nil {
		t.Fatal(err)
	}
	enc := h.Hash("correct horse battery staple")
	if !strings.HasPrefix(enc, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q does not carry the OWASP parameters", enc)
	}
	phc, err := account.ParsePHC(enc)
	if err != nil || len(phc.Salt) != 16 || len(phc.Key) != 32 {
		t.Fatalf("ParsePHC = %+v, %v", phc, err)
	}
	if ok, err := h.Verify(enc, "correct horse battery staple"); !ok || err != nil {
		t.Fatalf("Verify(right password) = %v, %v", ok, err)
	}
	if ok, err := h.Verify(enc, "correct horse battery stapler"); ok || err != nil {
		t.Fatalf("Verify(wrong password) = %v, %v", ok, err)
	}
	if h.NeedsRehash(enc) {
		t.Fatal("NeedsRehash of a fresh hash")
	}
}

func TestPasswordHasher(t *testing.T) {
	h := account.NewCheapHasher()
	a, b := h.Hash("same password"), h.Hash("same password")
	if a == b {
		t.Fatal("two hashes of one password are equal: salt is not random")
	}
	for _, enc := range []string{a, b} {
		if ok, err := h.Verify(enc, "same password"); !ok || err != nil {
			t.Fatalf("Verify = %v, %v", ok, err)
		}
	}
	if ok, _ := h.Verify(a, ""); ok {
		t.Fatal("empty password verified")
	}
	if _, err := h.Verify("$2a$10$bcrypt-hash", "x"); !errs.Is(err, errs.Internal) {
		t.Fatalf("Verify of a foreign hash: %v, want Internal", err)
	}
}

func TestNeedsRehash(t *testing.T) {
	old := account.NewCheapHasher()
	enc := old.Hash("pw")
	p := account.DefaultArgon2Params()
	p.Memory, p.Time = 128, 1
	upgraded := account.NewHasherUnchecked(p)
	if !upgraded.NeedsRehash(enc) {
		t.Fatal("hash with other parameters does not need a rehash")
	}
	if !upgraded.NeedsRehash("garbage") {
		t.Fatal("unparseable hash does not need a rehash")
	}
	// The upgraded hasher still verifies old hashes with their own parameters.
	if ok, err := upgraded.Verify(enc, "pw"); !ok || err != nil {
		t.Fatalf("Verify(old hash) = %v, %v", ok, err)
	}
}

func TestArgon2ParamsValidate(t *testing.T) {
	def := account.DefaultArgon2Params()
	mod := func(f func(*account.Argon2Params)) account.Argon2Params { p := def; f(&p); return p }
	tests := []struct {
		name string
		p    account.Argon2Params
		ok   bool
	}{
		{"OWASP default", def, true},
		{"OWASP m=47104 t=1", mod(func(p *account.Argon2Params) { p.Memory, p.Time = 47104, 1 }), true},
		{"OWASP m=7168 t=5", mod(func(p *account.Argon2Params) { p.Memory, p.Time = 7168, 5 }), true},
		{"too little memory", mod(func(p *account.Argon2Params) { p.Memory = 4096 }), false},
		{"too cheap overall", mod(func(p *account.Argon2Params) { p.Time = 1 }), false},
		{"short salt", mod(func(p *account.Argon2Params) { p.SaltLen = 8 }), false},
		{"short key", mod(func(p *account.Argon2Params) { p.KeyLen = 16 }), false},
		{"no threads", mod(func(p *account.Argon2Params) { p.Threads = 0 }), false},
		{"absurd memory", mod(func(p *account.Argon2Params) { p.Memory = 1 << 22 }), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.p.Validate(); tc.ok != (err == nil) {
				t.Fatalf("Validate(%+v) = %v, want ok=%v", tc.p, err, tc.ok)
			}
			if _, err := account.NewPasswordHasher(tc.p); tc.ok != (err == nil) {
				t.Fatalf("NewPasswordHasher(%+v) = %v, want ok=%v", tc.p, err, tc.ok)
			}
		})
	}
}

func TestParsePHC(t *testing.T) {
	good := "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U"
	phc, err := account.ParsePHC(good)
	if err != nil {
		t.Fatalf("ParsePHC(good) = %v", err)
	}
	if phc.Params != account.DefaultArgon2Params() || phc.String() != good {
		t.Fatalf("ParsePHC = %+v, prints %q", phc, phc.String())
	}
	bad := []string{
		"",
		"$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U",
		"$argon2id$v=16$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U",
		"$argon2id$v=19$t=2,m=19456,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U",
		"$argon2id$v=19$m=019456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U",
		"$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U",
		"$argon2id$v=19$m=4294967295,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U",
		"$argon2id$v=19$m=19456,t=4000000,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U",
		"$argon2id$v=19$m=19456,t=2,p=0$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U",
		"$argon2id$v=19$m=19456,t=2,p=1$$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U",
		"$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$",
		"$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U$",
		"$argon2id$v=19$m=19456,t=+2,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U",
	}
	for _, s := range bad {
		if _, err := account.ParsePHC(s); !errs.Is(err, errs.Internal) {
			t.Errorf("ParsePHC(%q) = %v, want Internal", s, err)
		}
	}
}

func FuzzParsePHC(f *testing.F) {
	f.Add("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U")
	f.Add("$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U")
	f.Add("$argon2id$v=19$m=,t=,p=$$")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		phc, err := account.ParsePHC(s)
		if err != nil {
			if !errs.Is(err, errs.Internal) {
				t.Fatalf("ParsePHC(%q): code %s, want Internal", s, errs.CodeOf(err))
			}
			return
		}
		if phc.String() != s {
			t.Fatalf("ParsePHC(%q) round-trips to %q", s, phc.String())
		}
		p := phc.Params
		if p.Memory > 1<<20 || p.Time > 32 || p.Threads == 0 || int(p.SaltLen) != len(phc.Salt) || int(p.KeyLen) != len(phc.Key) {
			t.Fatalf("ParsePHC(%q) accepted parameters %+v", s, p)
		}
	})
}
