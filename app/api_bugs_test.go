package app_test

import (
	"testing"
)

// TestAuthPayloadOwnerFields asks register, login and refreshToken for the
// new session's owner-only fields: the tokens issued in the same answer
// authorise them (no token, or another user's, on the request).
func TestAuthPayloadOwnerFields(t *testing.T) {
	t.Parallel()
	b := backends(t)[0]
	_, c := startServer(t, b, nil)
	other := newPlayer(t, c, "25.00") // a signed-in stranger must not change the answer
	const fields = `accessToken refreshToken user { id balance canStake verification { status } }`
	type payload struct {
		AccessToken, RefreshToken string
		User                      struct {
			ID, Balance  string
			CanStake     bool
			Verification struct{ Status string }
		}
	}
	check := func(t *testing.T, p payload) {
		t.Helper()
		if p.AccessToken == "" || p.RefreshToken == "" || p.User.ID == "" || p.User.ID == other.ID ||
			p.User.Balance != "0.00" || p.User.CanStake || p.User.Verification.Status != "NONE" {
			t.Fatalf("payload = %+v", p)
		}
	}
	email := unique("payload") + "@example.kz"
	for _, cl := range []struct {
		name string
		do   func(t *testing.T) payload
	}{
		{"register", func(t *testing.T) payload {
			var out struct{ Register payload }
			c.MustDo(t, `mutation($in: RegisterInput!) { register(input: $in) { `+fields+` } }`,
				map[string]any{"in": map[string]any{"email": email, "password": "player password 1", "name": "P", "dateOfBirth": "1990-05-17"}}, &out)
			return out.Register
		}},
		{"login as someone else", func(t *testing.T) payload {
			var out struct{ Login payload }
			other.Client.MustDo(t, `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { `+fields+` } }`,
				map[string]any{"e": email, "p": "player password 1"}, &out)
			return out.Login
		}},
	} {
		p := cl.do(t)
		t.Run(cl.name, func(t *testing.T) { check(t, p) })
		t.Run(cl.name+" then refresh", func(t *testing.T) {
			var out struct{ RefreshToken payload }
			c.MustDo(t, `mutation($r: String!) { refreshToken(refreshToken: $r) { `+fields+` } }`, map[string]any{"r": p.RefreshToken}, &out)
			check(t, out.RefreshToken)
		})
	}
}
