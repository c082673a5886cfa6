package auth

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
)

// Access token limits and defaults.
const (
	// MinSecretLen is the minimum HS256 secret length in bytes.
	MinSecretLen = 32
	// MaxTokenLen is the longest token Verify will look at; longer ones are
	// refused before parsing.
	MaxTokenLen = 8 << 10
	// DefaultAccessTTL is how long an access token lives unless configured.
	DefaultAccessTTL = 15 * time.Minute
	// DefaultLeeway absorbs clock skew between replicas.
	DefaultLeeway = 30 * time.Second
	// verifiedCap bounds the cache of verified tokens (about 1 KB each).
	verifiedCap = 4096
	// DefaultIssuer and DefaultAudience fill the iss and aud claims.
	DefaultIssuer   = "pokertote"
	DefaultAudience = "pokertote-api"
)

// AccessConfig configures access tokens. Zero fields take the defaults.
type AccessConfig struct {
	// Secret signs tokens with HS256; at least MinSecretLen bytes.
	Secret   []byte
	Issuer   string
	Audience string
	TTL      time.Duration
	// Leeway is the clock skew tolerated on exp and iat (at most 2 minutes).
	Leeway time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Claims is what an access token says about its bearer.
type Claims struct {
	UserID int64
	Role   account.Role
	// TokenID is the jti: unique per token, for logs and a future deny-list.
	TokenID string
	// Epoch is the user's token epoch when the token was issued (see
	// Epochs); 0 for tokens issued without one.
	Epoch     int64
	IssuedAt  time.Time
	ExpiresAt time.Time
}

// AccessTokens issues and verifies access tokens. It is safe for concurrent use.
type AccessTokens struct {
	secret []byte
	iss    string
	aud    string
	ttl    time.Duration
	now    func() time.Time
	parser *jwt.Parser
	// validator runs the parser's claim checks (times, issuer, audience,
	// jwtClaims.Validate) on a token found in verified.
	validator *jwt.Validator
	// verified holds the claims of tokens whose signature checked out,
	// by the token's text: the text fixes the header, claims and
	// signature, so a token seen again needs only its claims checked
	// against the clock again, not decoding and an HMAC, which every bet
	// would otherwise pay (docs/bench/2026-12-01-bets.md, third pass).
	mu       sync.Mutex
	verified map[string]jwtClaims
}

// jwtClaims is the token's JSON payload: the registered claims plus role.
type jwtClaims struct {
	Role  account.Role `json:"role"`
	Epoch int64        `json:"ep,omitempty"`
	jwt.RegisteredClaims
}

// Validate requires the claims the library leaves optional: a positive
// integer subject, a known role, a token id and an issue time.
func (c jwtClaims) Validate() error {
	if id, err := strconv.ParseInt(c.Subject, 10, 64); err != nil || id <= 0 || strconv.FormatInt(id, 10) != c.Subject {
		return jwt.ErrTokenInvalidSubject
	}
	if !c.Role.Valid() {
		return jwt.ErrTokenInvalidClaims
	}
	if c.ID == "" {
		return jwt.ErrTokenInvalidId
	}
	if c.IssuedAt == nil {
		return jwt.ErrTokenRequiredClaimMissing
	}
	if c.Epoch < 0 {
		return jwt.ErrTokenInvalidClaims
	}
	return nil
}

// NewAccessTokens checks cfg and returns an issuer/verifier. A secret shorter
// than MinSecretLen is an Invalid error: the server must not start with it.
func NewAccessTokens(cfg AccessConfig) (*AccessTokens, error) {
	if len(cfg.Secret) < MinSecretLen {
		return nil, errs.E(errs.Invalid, "the JWT secret must have at least %d bytes", MinSecretLen)
	}
	if cfg.Issuer == "" {
		cfg.Issuer = DefaultIssuer
	}
	if cfg.Audience == "" {
		cfg.Audience = DefaultAudience
	}
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultAccessTTL
	}
	if cfg.Leeway <= 0 {
		cfg.Leeway = DefaultLeeway
	}
	if cfg.Leeway > 2*time.Minute {
		return nil, errs.E(errs.Invalid, "JWT leeway %s is too generous (at most 2m)", cfg.Leeway)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	a := &AccessTokens{
		secret: append([]byte(nil), cfg.Secret...),
		iss:    cfg.Issuer,
		aud:    cfg.Audience,
		ttl:    cfg.TTL,
		now:    cfg.Now,
	}
	opts := []jwt.ParserOption{
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(),
		jwt.WithIssuer(cfg.Issuer),
		jwt.WithAudience(cfg.Audience),
		jwt.WithLeeway(cfg.Leeway),
		jwt.WithIssuedAt(),
		jwt.WithTimeFunc(cfg.Now),
	}
	a.parser = jwt.NewParser(opts...)
	a.validator = jwt.NewValidator(opts...)
	a.verified = make(map[string]jwtClaims)
	return a, nil
}

// Issue signs an access token for a user at token epoch 0.
func (a *AccessTokens) Issue(userID int64, role account.Role) (string, Claims, error) {
	return a.IssueAt(userID, role, 0)
}

// IssueAt signs an access token for a user carrying their current token
// epoch (Epochs.Fresh), so that a later revocation refuses it.
func (a *AccessTokens) IssueAt(userID int64, role account.Role, epoch int64) (string, Claims, error) {
	if userID <= 0 || !role.Valid() || epoch < 0 {
		return "", Claims{}, errs.E(errs.Internal, "cannot issue a token for user %d with role %q", userID, role)
	}
	now := a.now().UTC().Truncate(time.Second)
	c := Claims{UserID: userID, Role: role, TokenID: randomToken(16), Epoch: epoch, IssuedAt: now, ExpiresAt: now.Add(a.ttl)}
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, jwtClaims{
		Role:  role,
		Epoch: epoch,
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   strconv.FormatInt(userID, 10),
			Issuer:    a.iss,
			Audience:  jwt.ClaimStrings{a.aud},
			IssuedAt:  jwt.NewNumericDate(c.IssuedAt),
			ExpiresAt: jwt.NewNumericDate(c.ExpiresAt),
			ID:        c.TokenID,
		},
	})
	s, err := tok.SignedString(a.secret)
	if err != nil {
		return "", Claims{}, errs.Wrap(err, "signing the access token failed")
	}
	return s, c, nil
}

// Verify checks an access token and returns its claims. A genuine token
// past its expiry (beyond the leeway) is Unauthenticated with reason
// TOKEN_EXPIRED: the client refreshes it and retries. Every other failure
// (too long, malformed, another algorithm, bad signature, issued in the
// future, wrong issuer or audience, missing claims) is the same
// Unauthenticated error with reason INVALID_TOKEN; the cause is kept for
// the logs only. The signature is checked before the expiry, so only a
// token this server signed can say it expired.
func (a *AccessTokens) Verify(token string) (Claims, error) {
	if len(token) > MaxTokenLen {
		return Claims{}, invalidToken(nil)
	}
	a.mu.Lock()
	c, seen := a.verified[token]
	a.mu.Unlock()
	if seen {
		if err := a.validator.Validate(c); err != nil {
			return Claims{}, refused(err)
		}
	} else {
		_, err := a.parser.ParseWithClaims(token, &c, func(t *jwt.Token) (any, error) {
			if t.Method != jwt.SigningMethodHS256 {
				return nil, jwt.ErrTokenSignatureInvalid
			}
			return a.secret, nil
		})
		if err != nil {
			return Claims{}, refused(err)
		}
		a.remember(token, c)
	}
	id, _ := strconv.ParseInt(c.Subject, 10, 64)
	return Claims{UserID: id, Role: c.Role, TokenID: c.ID, Epoch: c.Epoch, IssuedAt: c.IssuedAt.UTC(), ExpiresAt: c.ExpiresAt.UTC()}, nil
}

// remember caches a verified token's claims; a full cache forgets an
// arbitrary entry first (tokens are short-lived: a forgotten one is only
// decoded again).
func (a *AccessTokens) remember(token string, c jwtClaims) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.verified) >= verifiedCap {
		for k := range a.verified {
			delete(a.verified, k)
			break
		}
	}
	a.verified[token] = c
}

// refused is the error of a token that failed verification: expired, or
// invalid for any other cause.
func refused(cause error) error {
	if errors.Is(cause, jwt.ErrTokenExpired) {
		return &errs.Error{Code: errs.Unauthenticated, Reason: ReasonTokenExpired, Message: "the access token has expired: refresh it and retry", Err: cause}
	}
	return invalidToken(cause)
}

func invalidToken(cause error) error {
	return &errs.Error{Code: errs.Unauthenticated, Reason: ReasonInvalidToken, Message: "invalid or expired token", Err: cause}
}

// randomToken is n random bytes in unpadded base64url.
func randomToken(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
