package account

// WithCheapHashing makes a Service hash passwords with toy Argon2 parameters
// so that tests stay fast. Production code cannot reach it.
var WithCheapHashing = withArgon2Params(cheapArgon2)

var cheapArgon2 = Argon2Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

// NewCheapHasher is a PasswordHasher with toy parameters, for tests.
func NewCheapHasher() *PasswordHasher { return &PasswordHasher{params: cheapArgon2} }

// NewHasherUnchecked is a PasswordHasher with any parameters, for tests.
func NewHasherUnchecked(p Argon2Params) *PasswordHasher { return &PasswordHasher{params: p} }

// WithArgon2ForTest makes a Service hash with p, unchecked.
func WithArgon2ForTest(p Argon2Params) Option { return withArgon2Params(p) }
