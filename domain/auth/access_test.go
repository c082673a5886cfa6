package auth_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/internal/clocktest"
)

var secret = bytes.Repeat([]byte("s"), 32)

func newAccess(t *testing.T, clk *clocktest.Clock) *auth.AccessTokens {
	t.Helper()
	a, err := auth.NewAccessTokens(auth.AccessConfig{Secret: secret, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func wantUnauthenticated(t *testing.T, err error) {
	t.Helper()
	if !errs.Is(err, errs.Unauthenticated) {
		t.Fatalf("error = %v (code %q), want Unauthenticated", err, errs.CodeOf(err))
	}
}

func TestAccessHappyPath(t *testing.T) {
	clk := clocktest.New(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	a := newAccess(t, clk)
	tok, issued, err := a.Issue(42, account.Admin)
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(14 * time.Minute)
	got, err := a.Verify(tok)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if got != issued || got.UserID != 42 || got.Role != account.Admin || got.TokenID == "" ||
		got.ExpiresAt.Sub(got.IssuedAt) != auth.DefaultAccessTTL {
		t.Fatalf("claims = %+v, issued %+v", got, issued)
	}
	_, second, _ := a.Issue(42, account.Admin)
	if second.TokenID == issued.TokenID {
		t.Fatal("two tokens share a jti")
	}
	if _, _, err := a.Issue(0, account.Player); err == nil {
		t.Fatal("Issue for user 0 succeeded")
	}
}

func TestNewAccessTokensConfig(t *testing.T) {
	if _, err := auth.NewAccessTokens(auth.AccessConfig{Secret: secret[:31]}); !errs.Is(err, errs.Invalid) {
		t.Fatalf("31-byte secret: %v, want Invalid", err)
	}
	if _, err := auth.NewAccessTokens(auth.AccessConfig{Secret: secret, Leeway: time.Hour}); err == nil {
		t.Fatal("an hour of leeway accepted")
	}
}

// claimsAt are valid claims issued at now.
func claimsAt(now time.Time) jwt.MapClaims {
	return jwt.MapClaims{
		"sub":  "42",
		"role": "PLAYER",
		"iss":  auth.DefaultIssuer,
		"aud":  auth.DefaultAudience,
		"iat":  now.Unix(),
		"exp":  now.Add(15 * time.Minute).Unix(),
		"jti":  "abc",
		"note": "forged",
	}
}

func sign(t *testing.T, m jwt.SigningMethod, c jwt.Claims, key any) string {
	t.Helper()
	s, err := jwt.NewWithClaims(m, c).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAccessRejects(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	clk := clocktest.New(now)
	a := newAccess(t, clk)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	without := func(k string) jwt.MapClaims { c := claimsAt(now); delete(c, k); return c }
	with := func(k string, v any) jwt.MapClaims { c := claimsAt(now); c[k] = v; return c }
	valid, _, _ := a.Issue(42, account.Player)
	parts := strings.Split(valid, ".")

	// A token whose header says RS256 but which is signed with HMAC over the
	// shared secret: the classic algorithm-confusion forgery.
	confused := func() string {
		h := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"RS256","typ":"JWT"}`))
		mac := hmac.New(sha256.New, secret)
		mac.Write([]byte(h + "." + parts[1]))
		return h + "." + parts[1] + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
	}()
	none := func() string {
		s, err := jwt.NewWithClaims(jwt.SigningMethodNone, claimsAt(now)).SignedString(jwt.UnsafeAllowNoneSignatureType)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}()
	tests := []struct {
		name  string
		token string
	}{
		{"alg none", none},
		{"alg none, signature stripped from a real token", base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."},
		{"RS256 signed with an RSA key", sign(t, jwt.SigningMethodRS256, claimsAt(now), rsaKey)},
		{"RS256 header, HMAC signature", confused},
		{"HS512 with the right secret", sign(t, jwt.SigningMethodHS512, claimsAt(now), secret)},
		{"HS384 with the right secret", sign(t, jwt.SigningMethodHS384, claimsAt(now), secret)},
		{"missing exp", sign(t, jwt.SigningMethodHS256, without("exp"), secret)},
		{"missing iat", sign(t, jwt.SigningMethodHS256, without("iat"), secret)},
		{"missing jti", sign(t, jwt.SigningMethodHS256, without("jti"), secret)},
		{"missing sub", sign(t, jwt.SigningMethodHS256, without("sub"), secret)},
		{"missing role", sign(t, jwt.SigningMethodHS256, without("role"), secret)},
		{"unknown role", sign(t, jwt.SigningMethodHS256, with("role", "ROOT"), secret)},
		{"non-numeric sub", sign(t, jwt.SigningMethodHS256, with("sub", "admin"), secret)},
		{"sub with leading zero", sign(t, jwt.SigningMethodHS256, with("sub", "042"), secret)},
		{"negative sub", sign(t, jwt.SigningMethodHS256, with("sub", "-1"), secret)},
		{"issued in the future", sign(t, jwt.SigningMethodHS256, with("iat", now.Add(5*time.Minute).Unix()), secret)},
		{"wrong issuer", sign(t, jwt.SigningMethodHS256, with("iss", "evil"), secret)},
		{"missing issuer", sign(t, jwt.SigningMethodHS256, without("iss"), secret)},
		{"wrong audience", sign(t, jwt.SigningMethodHS256, with("aud", "other-api"), secret)},
		{"missing audience", sign(t, jwt.SigningMethodHS256, without("aud"), secret)},
		{"another secret", sign(t, jwt.SigningMethodHS256, claimsAt(now), bytes.Repeat([]byte("x"), 32))},
		{"tampered payload", parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"1","role":"ADMIN"}`)) + "." + parts[2]},
		{"1 MB token", valid + strings.Repeat("A", 1<<20)},
		{"just over 8 KiB", strings.Repeat("a", auth.MaxTokenLen+1)},
		{"garbage", "garbage"},
		{"empty", ""},
		{"three dots of garbage", "a.b.c"},
		{"bearer prefix left on", "Bearer " + valid},
		{"expired and signed with another secret", sign(t, jwt.SigningMethodHS256, with("exp", now.Add(-time.Minute).Unix()), bytes.Repeat([]byte("x"), 32))},
	}
	// A genuine token past its expiry says so: the client refreshes it.
	expired := sign(t, jwt.SigningMethodHS256, with("exp", now.Add(-time.Minute).Unix()), secret)
	if c, err := a.Verify(expired); errs.CodeOf(err) != errs.Unauthenticated || errs.ReasonOf(err) != auth.ReasonTokenExpired || c != (auth.Claims{}) {
		t.Errorf("an expired token: %+v, %v; want UNAUTHENTICATED / TOKEN_EXPIRED", c, err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := a.Verify(tc.token)
			wantUnauthenticated(t, err)
			if errs.ReasonOf(err) != auth.ReasonInvalidToken || c != (auth.Claims{}) {
				t.Fatalf("Verify = %+v, reason %q", c, errs.ReasonOf(err))
			}
			var e *errs.Error
			if errors.As(err, &e); e.Message != "invalid or expired token" {
				t.Fatalf("message %q is not the generic one", e.Message)
			}
		})
	}
	// The valid token itself passes, so the rejections above are about
	// what each case changed.
	if _, err := a.Verify(valid); err != nil {
		t.Fatalf("control token rejected: %v", err)
	}
}

func TestAccessExpiryAndLeeway(t *testing.T) {
	clk := clocktest.New(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	a := newAccess(t, clk)
	tok, _, _ := a.Issue(1, account.Player)
	clk.Advance(auth.DefaultAccessTTL + 20*time.Second) // within the 30 s leeway
	if _, err := a.Verify(tok); err != nil {
		t.Fatalf("token 20 s past exp rejected despite leeway: %v", err)
	}
	clk.Advance(15 * time.Second)
	_, err := a.Verify(tok)
	wantUnauthenticated(t, err)
}

func FuzzAccessVerify(f *testing.F) {
	clk := clocktest.New(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	a, err := auth.NewAccessTokens(auth.AccessConfig{Secret: secret, Now: clk.Now})
	if err != nil {
		f.Fatal(err)
	}
	tok, _, _ := a.Issue(42, account.Player)
	f.Add(tok)
	f.Add("eyJhbGciOiJub25lIn0.e30.")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := a.Verify(s)
		if err != nil {
			if !errs.Is(err, errs.Unauthenticated) {
				t.Fatalf("Verify(%q): code %s", s, errs.CodeOf(err))
			}
			return
		}
		if c.UserID <= 0 || !c.Role.Valid() {
			t.Fatalf("Verify(%q) accepted claims %+v", s, c)
		}
	})
}
