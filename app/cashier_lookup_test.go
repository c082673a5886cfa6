package app_test

import (
	"strings"
	"testing"
)

// TestUserByEmailForTheCashier: an admin finds a player by email as typed
// (any case, spaces) with their balance; an unknown address is null; a
// player may not ask.
func TestUserByEmailForTheCashier(t *testing.T) {
	t.Parallel()
	_, c := startServer(t, backends(t)[0], nil)
	p := newPlayer(t, c, "250.00")
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	const q = `query($e: String!) { userByEmail(email: $e) { id email balance } }`
	var out struct {
		UserByEmail *struct{ ID, Email, Balance string }
	}
	admin.MustDo(t, q, map[string]any{"e": "  " + strings.ToUpper(p.Email) + " "}, &out)
	if out.UserByEmail == nil || out.UserByEmail.ID != p.ID || out.UserByEmail.Balance != "250.00" {
		t.Fatalf("userByEmail(%s) = %+v, want user %s with 250.00", p.Email, out.UserByEmail, p.ID)
	}
	out.UserByEmail = nil
	admin.MustDo(t, q, map[string]any{"e": "nobody-" + p.Email}, &out)
	if out.UserByEmail != nil {
		t.Errorf("unknown email = %+v, want null", out.UserByEmail)
	}
	admin.MustFail(t, "BAD_USER_INPUT", "INVALID_EMAIL", q, map[string]any{"e": "not an email"})
	p.Client.MustFail(t, "FORBIDDEN", "", q, map[string]any{"e": p.Email})
}
