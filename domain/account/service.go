package account

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
)

// Config configures a Service. Zero fields take the defaults noted.
type Config struct {
	// Location is the operator's time zone for ages and calendar days
	// (default Asia/Almaty).
	Location *time.Location
	// MinAge is the minimum age to register and to stake (default 21; at
	// least 18 is required).
	MinAge int
	// DocumentPepper keys the hash of document numbers; required, at least
	// MinPepperLen bytes, kept outside the database.
	DocumentPepper []byte
	// Argon2 are the password hashing parameters (default
	// DefaultArgon2Params); raising them upgrades hashes on login.
	Argon2 Argon2Params
	// Throttles limit sign-in attempts by account, address and both
	// (LoginThrottles; a nil one is a Throttle with its default config and
	// the Service's clock).
	Throttles LoginThrottles
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Screen, when set, refuses people in the exclusion register at
	// registration and verification.
	Screen Screen
	// TermsVersion names the operator's terms in force (the rules and the
	// responsible-gaming pages): a player accepts it to register, and
	// accepts again once it changes (default DefaultTermsVersion; at most
	// MaxTermsVersionLen bytes of printable ASCII).
	TermsVersion string
}

// Screen checks a person against the exclusion register: nil, or
// a Forbidden error with reason EXCLUDED. The protection service
// implements it; account only declares what it consumes.
type Screen interface {
	// ScreenRegistration checks a new account's name and date of birth.
	ScreenRegistration(ctx context.Context, name string, dob Date) error
	// ScreenDocument checks a submitted document's keyed hash, with the
	// account's name and date of birth.
	ScreenDocument(ctx context.Context, docHash, name string, dob Date) error
}

// Option adjusts a Service beyond its Config. There are no exported options;
// the type exists so that tests can use cheaper password hashing.
type Option func(*options)

type options struct {
	argon2 *Argon2Params
}

// withArgon2Params uses p for password hashing without checking it against
// the OWASP minimum: only for tests, which must stay fast.
func withArgon2Params(p Argon2Params) Option {
	return func(o *options) { o.argon2 = &p }
}

// Service registers users, logs them in and runs age verification.
type Service struct {
	store     UserStore
	loc       *time.Location
	minAge    int
	pepper    []byte
	hasher    *PasswordHasher
	dummyHash string
	throttles LoginThrottles
	screen    Screen
	terms     string
	now       func() time.Time
}

// NewService builds a Service on store. It fails on an unusable Config: a
// missing or short pepper, a minimum age under 18, weak Argon2 parameters.
// It computes one password hash up front (to answer logins for unknown
// emails as slowly as for known ones).
func NewService(store UserStore, cfg Config, opts ...Option) (*Service, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	s := &Service{store: store, loc: cfg.Location, minAge: cfg.MinAge, throttles: cfg.Throttles, screen: cfg.Screen, now: cfg.Now, terms: cfg.TermsVersion}
	if s.terms == "" {
		s.terms = DefaultTermsVersion
	}
	if !validTermsVersion(s.terms) {
		return nil, errs.E(errs.Invalid, "terms version %q is not 1 to %d printable ASCII characters", s.terms, MaxTermsVersionLen)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.loc == nil {
		loc, err := LoadZone(DefaultZone)
		if err != nil {
			return nil, err
		}
		s.loc = loc
	}
	if s.minAge == 0 {
		s.minAge = DefaultMinAge
	}
	if s.minAge < 18 || s.minAge > MaxAge {
		return nil, errs.E(errs.Invalid, "minimum age %d is not allowed (18 or more)", s.minAge)
	}
	if len(cfg.DocumentPepper) < MinPepperLen {
		return nil, errs.E(errs.Invalid, "the document pepper must have at least %d bytes", MinPepperLen)
	}
	s.pepper = append([]byte(nil), cfg.DocumentPepper...)
	switch {
	case o.argon2 != nil:
		s.hasher = &PasswordHasher{params: *o.argon2}
	case cfg.Argon2 == Argon2Params{}:
		s.hasher = &PasswordHasher{params: DefaultArgon2Params()}
	default:
		h, err := NewPasswordHasher(cfg.Argon2)
		if err != nil {
			return nil, err
		}
		s.hasher = h
	}
	for _, t := range []struct {
		l   *LoginLimiter
		cfg ThrottleConfig
	}{{&s.throttles.Pair, PairThrottle}, {&s.throttles.Account, AccountThrottle}, {&s.throttles.Address, AddressThrottle}} {
		if *t.l == nil {
			*t.l = NewThrottle(t.cfg, s.now)
		}
	}
	s.dummyHash = s.hasher.Hash("pokertote timing equaliser")
	return s, nil
}

// Location is the operator's time zone.
func (s *Service) Location() *time.Location { return s.loc }

// IsAdult reports whether someone born on dob is at least the minimum age at
// now, in the operator's zone.
func (s *Service) IsAdult(dob Date, now time.Time) bool {
	return IsAdult(dob, now, s.loc, s.minAge)
}

// Register creates a PLAYER account. Errors: Invalid with reason
// INVALID_EMAIL, INVALID_PASSWORD, INVALID_NAME, INVALID_DATE_OF_BIRTH or
// UNDER_AGE (younger than the minimum age today in the operator's zone: no
// account is created); Conflict EMAIL_TAKEN.
func (s *Service) Register(ctx context.Context, r Registration) (User, error) {
	return s.Provision(ctx, r, Player)
}

// Provision creates an account with any role, under the same rules as
// Register. It is for the server's bootstrap (the first admin) and admin
// tooling, never for the public registration mutation.
func (s *Service) Provision(ctx context.Context, r Registration, role Role) (User, error) {
	if !role.Valid() {
		return User{}, errs.R(errs.Invalid, ReasonInvalidRole, "unknown role %q", role)
	}
	email, err := NormalizeEmail(r.Email)
	if err != nil {
		return User{}, err
	}
	if err := s.refuseLookalike(ctx, email); err != nil {
		return User{}, err
	}
	if err := ValidatePassword(r.Password); err != nil {
		return User{}, err
	}
	name, err := NormalizeName(r.Name)
	if err != nil {
		return User{}, err
	}
	now := s.now()
	if err := validateDateOfBirth(r.DateOfBirth, DateOf(now, s.loc), s.minAge); err != nil {
		return User{}, err
	}
	if s.screen != nil && role == Player {
		if err := s.screen.ScreenRegistration(ctx, name, r.DateOfBirth); err != nil {
			return User{}, err
		}
	}
	if role == Player {
		if err := s.checkTerms(r.AcceptedTerms); err != nil {
			return User{}, err
		}
	}
	u := User{
		Email:        email,
		Name:         name,
		DateOfBirth:  r.DateOfBirth,
		Role:         role,
		PasswordHash: s.hasher.Hash(r.Password),
		CreatedAt:    now,
		Verification: NotSubmitted,
	}
	if role != Player {
		return s.store.Create(ctx, u)
	}
	return s.store.CreateAccepting(ctx, u, s.terms)
}

// refuseLookalike refuses an address that looks like an admin's without
// being it (same EmailSkeleton): Invalid EMAIL_LOOKALIKE, which does not say
// whose address it resembles. The admin's own address falls through to
// EMAIL_TAKEN.
func (s *Service) refuseLookalike(ctx context.Context, email string) error {
	admins, err := s.store.AdminEmails(ctx)
	if err != nil {
		return err
	}
	sk := EmailSkeleton(email)
	for _, a := range admins {
		if a != email && EmailSkeleton(a) == sk {
			return errs.R(errs.Invalid, ReasonEmailLookalike, "that address is too much like another account's; choose another")
		}
	}
	return nil
}

// Login checks an email and password. ip is the client's address ("" when
// unknown); the account, the address and the pair are throttled (see
// PairThrottle). Errors: Forbidden TOO_MANY_ATTEMPTS while any is locked; Unauthenticated
// INVALID_CREDENTIALS for an unknown email or a wrong password alike (an
// unknown email still costs one password hash, so timing does not tell
// them apart). A successful login whose hash uses outdated parameters is
// rehashed; failing to store the new hash does not fail the login.
func (s *Service) Login(ctx context.Context, email, password, ip string) (User, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	type key struct {
		l LoginLimiter
		k string
		// flood: the address's key, which a success does not clear (one
		// good password of the flooder's own must not reset a flood).
		flood bool
	}
	keys := []key{{s.throttles.Account, "email:" + email, false}}
	if ip != "" {
		keys = append(keys, key{s.throttles.Pair, "pair:" + ip + "|" + email, false}, key{s.throttles.Address, "ip:" + ip, true})
	}
	for _, k := range keys {
		if err := k.l.Allow(k.k); err != nil {
			return User{}, err
		}
	}
	fail := func() (User, error) {
		for _, k := range keys {
			k.l.Fail(k.k)
		}
		return User{}, errs.R(errs.Unauthenticated, ReasonInvalidCredentials, "wrong email or password")
	}
	if len(password) > maxPasswordBytes || len(email) > MaxEmailLen {
		return fail()
	}
	u, err := s.store.ByEmail(ctx, email)
	if errs.Is(err, errs.NotFound) {
		_, _ = s.hasher.Verify(s.dummyHash, password)
		return fail()
	}
	if err != nil {
		return User{}, err
	}
	ok, err := s.hasher.Verify(u.PasswordHash, password)
	if err != nil {
		return User{}, err
	}
	if !ok {
		return fail()
	}
	for _, k := range keys {
		if !k.flood {
			k.l.Succeed(k.k)
		}
	}
	// Told only after the right password, so the refusal does not reveal
	// to a stranger that the address has a (disabled) account.
	if err := EnsureEnabled(u); err != nil {
		return User{}, err
	}
	if s.hasher.NeedsRehash(u.PasswordHash) {
		h := s.hasher.Hash(password)
		if s.store.SetPasswordHash(ctx, u.ID, h) == nil {
			u.PasswordHash = h
		}
	}
	return u, nil
}

// SubmitVerification records a player's identity document for an admin to
// check. The document number is normalized and only its keyed hash is kept.
// The date of birth on the document must equal the account's: a mismatch is
// refused at once (Invalid DOB_MISMATCH) rather than left for an admin, since
// the account's date of birth is what the age gate used and a player cannot
// change it; support corrects genuine typos. Errors also: Forbidden
// NOT_A_PLAYER; Invalid INVALID_DOCUMENT_TYPE, INVALID_DOCUMENT_NUMBER,
// INVALID_DATE; Conflict VERIFICATION_PENDING or ALREADY_VERIFIED. A
// rejected player may submit again.
func (s *Service) SubmitVerification(ctx context.Context, userID int64, sub Submission) (Verification, error) {
	u, err := s.store.ByID(ctx, userID)
	if err != nil {
		return Verification{}, err
	}
	if u.Role != Player {
		return Verification{}, errs.R(errs.Forbidden, ReasonNotAPlayer, "only players verify their age")
	}
	if !sub.DocumentType.Valid() {
		return Verification{}, errs.R(errs.Invalid, ReasonInvalidDocumentType, "the document must be an ID card, a passport or a driver's license")
	}
	if !sub.DateOfBirth.Valid() {
		return Verification{}, errs.R(errs.Invalid, ReasonInvalidDate, "the date of birth on the document is not a valid date")
	}
	hash, err := HashDocumentNumber(s.pepper, sub.DocumentNumber)
	if err != nil {
		return Verification{}, err
	}
	if sub.DateOfBirth != u.DateOfBirth {
		return Verification{}, errs.R(errs.Invalid, ReasonDobMismatch,
			"the date of birth on the document (%s) differs from the one on your account; contact support", sub.DateOfBirth)
	}
	switch u.Verification {
	case Pending:
		return Verification{}, errs.R(errs.Conflict, ReasonVerificationPending, "your document is already waiting for review")
	case Approved:
		return Verification{}, errs.R(errs.Conflict, ReasonAlreadyVerified, "your age is already verified")
	}
	if s.screen != nil {
		if err := s.screen.ScreenDocument(ctx, hash, u.Name, u.DateOfBirth); err != nil {
			return Verification{}, err
		}
	}
	from := u.Verification
	if from == "" {
		from = NotSubmitted
	}
	return s.store.SaveVerification(ctx, VerificationChange{
		Verification: Verification{
			UserID:       u.ID,
			DocumentType: sub.DocumentType,
			DocumentHash: hash,
			DateOfBirth:  sub.DateOfBirth,
			Status:       Pending,
			SubmittedAt:  s.now(),
		},
		From: from,
	})
}

// Decision is an admin's verdict on a pending verification.
type Decision struct {
	Approve bool
	// Reason is shown to the player; required (1 to 500 characters) to
	// reject, optional to approve.
	Reason string
}

// DecideVerification approves or rejects a pending verification and records
// the decision in the audit log, atomically. Errors: Forbidden NOT_ADMIN
// (adminID is not an admin) or SELF_DECISION (admins do not decide their own
// verification); NotFound; Conflict NOT_PENDING (already decided, also when
// another admin won a race); Invalid INVALID_REASON.
func (s *Service) DecideVerification(ctx context.Context, adminID, verificationID int64, d Decision) (Verification, error) {
	if err := s.requireAdmin(ctx, adminID); err != nil {
		return Verification{}, err
	}
	reason := strings.TrimSpace(d.Reason)
	if !utf8.ValidString(reason) || utf8.RuneCountInString(reason) > maxReasonLen || (!d.Approve && reason == "") {
		return Verification{}, errs.R(errs.Invalid, ReasonInvalidReason, reasonRequiredMsg)
	}
	v, err := s.store.VerificationByID(ctx, verificationID)
	if err != nil {
		return Verification{}, err
	}
	if v.UserID == adminID {
		return Verification{}, errs.R(errs.Forbidden, ReasonSelfDecision, "an admin cannot decide their own verification")
	}
	if v.Status != Pending {
		return Verification{}, errs.R(errs.Conflict, ReasonNotPending, "this verification was already decided")
	}
	now := s.now()
	action := ActionVerificationRejected
	v.Status = Rejected
	if d.Approve {
		action = ActionVerificationApproved
		v.Status = Approved
	}
	v.Reason, v.DecidedAt, v.DecidedBy = reason, now, adminID
	saved, err := s.store.SaveVerification(ctx, VerificationChange{
		Verification: v,
		From:         Pending,
		Audit:        &AuditEntry{At: now, ActorID: adminID, Action: action, SubjectID: v.UserID, Detail: verificationDetail(d.Approve, reason)},
	})
	if errs.ReasonOf(err) == ReasonVerificationChanged {
		return Verification{}, errs.R(errs.Conflict, ReasonNotPending, "this verification was already decided")
	}
	return saved, err
}

// PendingVerifications lists verifications waiting for review, oldest
// first, for an admin.
func (s *Service) PendingVerifications(ctx context.Context, adminID int64, p Page) ([]Verification, int64, error) {
	if err := s.requireAdmin(ctx, adminID); err != nil {
		return nil, 0, err
	}
	return s.store.ListPendingVerifications(ctx, p)
}

// AuditLog lists the admin actions f selects, newest first, for an admin.
func (s *Service) AuditLog(ctx context.Context, adminID int64, f AuditFilter, p Page) ([]AuditEntry, int64, error) {
	if err := s.requireAdmin(ctx, adminID); err != nil {
		return nil, 0, err
	}
	return s.store.ListAudit(ctx, f, p)
}

// SetRole gives a user another role (for example AFFILIATE for a partner's
// reporting account) and records it in the audit log. Admins cannot change
// their own role, so the last admin cannot lock everyone out by accident.
func (s *Service) SetRole(ctx context.Context, adminID, userID int64, role Role) (User, error) {
	if err := s.requireAdmin(ctx, adminID); err != nil {
		return User{}, err
	}
	if !role.Valid() {
		return User{}, errs.R(errs.Invalid, ReasonInvalidRole, "unknown role %q", role)
	}
	if adminID == userID {
		return User{}, errs.R(errs.Forbidden, ReasonSelfDecision, "an admin cannot change their own role")
	}
	prev, err := s.store.ByID(ctx, userID)
	if err != nil {
		return User{}, err
	}
	return s.store.SetRole(ctx, userID, role, AuditEntry{
		At: s.now(), ActorID: adminID, Action: ActionRoleChanged, SubjectID: userID,
		Detail:  "Role changed from " + string(prev.Role) + " to " + string(role),
		Changes: []AuditChange{{Field: "role", From: string(prev.Role), To: string(role)}},
	})
}

// DisableAccount disables a user's account for reason (required, as a
// rejection's is): from now on it cannot sign in or refresh. The caller
// revokes the user's tokens and closes their connections (the API layer
// does, through auth.Epochs). Admins cannot disable themselves. Errors:
// Forbidden NOT_ADMIN / SELF_DECISION, Invalid INVALID_REASON, Conflict
// ALREADY_DISABLED, NotFound.
func (s *Service) DisableAccount(ctx context.Context, adminID, userID int64, reason string) (User, error) {
	if err := s.requireAdmin(ctx, adminID); err != nil {
		return User{}, err
	}
	reason = strings.TrimSpace(reason)
	if !utf8.ValidString(reason) || utf8.RuneCountInString(reason) > maxReasonLen || reason == "" {
		return User{}, errs.R(errs.Invalid, ReasonInvalidReason, "disabling an account needs a reason of 1 to %d characters", maxReasonLen)
	}
	if adminID == userID {
		return User{}, errs.R(errs.Forbidden, ReasonSelfDecision, "an admin cannot disable their own account")
	}
	prev, err := s.store.ByID(ctx, userID)
	if err != nil {
		return User{}, err
	}
	if prev.Disabled() {
		return User{}, errs.R(errs.Conflict, ReasonAlreadyDisabled, "the account is already disabled")
	}
	at := s.now().UTC()
	return s.store.SetDisabled(ctx, userID, &at, reason, AuditEntry{
		At: at, ActorID: adminID, Action: ActionAccountDisabled, SubjectID: userID,
		Detail:  "Account disabled: " + reason,
		Changes: []AuditChange{{Field: "disabled", From: "false", To: "true"}},
	})
}

// EnableAccount enables a disabled account again; the user signs in anew
// (the sessions that were open when it was disabled stay ended). Errors:
// Forbidden NOT_ADMIN, Conflict NOT_DISABLED, NotFound.
func (s *Service) EnableAccount(ctx context.Context, adminID, userID int64) (User, error) {
	if err := s.requireAdmin(ctx, adminID); err != nil {
		return User{}, err
	}
	prev, err := s.store.ByID(ctx, userID)
	if err != nil {
		return User{}, err
	}
	if !prev.Disabled() {
		return User{}, errs.R(errs.Conflict, ReasonNotDisabled, "the account is not disabled")
	}
	return s.store.SetDisabled(ctx, userID, nil, "", AuditEntry{
		At: s.now(), ActorID: adminID, Action: ActionAccountEnabled, SubjectID: userID,
		Detail:  "Account enabled",
		Changes: []AuditChange{{Field: "disabled", From: "true", To: "false"}},
	})
}

// EnsureEnabled refuses a disabled account: Forbidden ACCOUNT_DISABLED. It
// is the gate of every way to get a token (sign-in, registration, refresh).
func EnsureEnabled(u User) error {
	if u.Disabled() {
		return errs.R(errs.Forbidden, ReasonAccountDisabled, "this account has been disabled; contact support")
	}
	return nil
}

// verificationDetail is the audit sentence of a verification decision.
func verificationDetail(approve bool, reason string) string {
	s := "Verification rejected"
	if approve {
		s = "Verification approved"
	}
	if reason != "" {
		s += ": " + reason
	}
	return s
}

func (s *Service) requireAdmin(ctx context.Context, id int64) error {
	u, err := s.store.ByID(ctx, id)
	if err != nil && !errs.Is(err, errs.NotFound) {
		return err
	}
	if err != nil || u.Role != Admin {
		return errs.R(errs.Forbidden, ReasonNotAdmin, "only an admin may do this")
	}
	return nil
}

// EnsureCanStake loads the user and their latest verification and applies
// CanStake at the current time: the one call a betting service needs.
func (s *Service) EnsureCanStake(ctx context.Context, userID ids.UserID) error {
	u, err := s.store.ByID(ctx, int64(userID))
	if err != nil {
		return err
	}
	v, err := s.store.Verification(ctx, int64(userID))
	if err != nil && !errs.Is(err, errs.NotFound) {
		return err
	}
	return s.CanStake(u, v, s.now())
}

// CanStake reports whether u may stake money at now: nil, or a Forbidden
// error with reason ACCOUNT_DISABLED, NOT_A_PLAYER (affiliates and admins never stake),
// NOT_VERIFIED (v is not u's APPROVED verification for u's date of birth)
// or UNDER_AGE (not yet the minimum age on now's date in the operator's
// zone). v is u's latest verification (the zero Verification when none).
func (s *Service) CanStake(u User, v Verification, now time.Time) error {
	// Its tokens were revoked when it was disabled; this is the money's own
	// guard should a request still get through.
	if err := EnsureEnabled(u); err != nil {
		return err
	}
	if u.Role != Player {
		return errs.R(errs.Forbidden, ReasonNotAPlayer, "only players may stake")
	}
	if v.UserID != u.ID || v.Status != Approved || v.DateOfBirth != u.DateOfBirth {
		return errs.R(errs.Forbidden, ReasonNotVerified, "verify your age before you bet")
	}
	if !s.IsAdult(u.DateOfBirth, now) {
		return errs.R(errs.Forbidden, ReasonUnderAge, "you must be at least %d years old to bet", s.minAge)
	}
	return nil
}
