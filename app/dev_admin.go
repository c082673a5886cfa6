package app

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
)

// DevAdminEmail is the development admin's email (DEV_ADMIN).
const DevAdminEmail = "dev-admin@example.kz"

// devAdminPasswordFile keeps the development admin's password in the data
// folder, so a restart reuses the same credentials.
const devAdminPasswordFile = "dev-admin-password"

// ensureDevAdmin gives a development server with no ADMIN_EMAIL an admin a
// newcomer can sign in as (to approve verifications and take deposits), and
// prints its credentials. Never in production: Validate refuses DEV_ADMIN
// there, and this checks again.
func (a *App) ensureDevAdmin(ctx context.Context) error {
	if !a.cfg.DevAdmin || !a.cfg.Development() || a.cfg.AdminEmail != "" {
		return nil
	}
	password, err := a.devAdminPassword()
	if err != nil {
		return err
	}
	_, err = a.accounts.Provision(ctx, account.Registration{
		Email: DevAdminEmail, Password: password, Name: "Development admin",
		DateOfBirth: account.Date{Year: 1970, Month: time.January, Day: 1},
	}, account.Admin)
	created := err == nil
	if err != nil && !errs.Is(err, errs.Conflict) {
		return fmt.Errorf("development admin: %w", err)
	}
	a.log.Warn("development admin: sign in with this email and password (development only; DEV_ADMIN=false turns it off, ADMIN_EMAIL/ADMIN_PASSWORD replace it)",
		"email", DevAdminEmail, "password", password, "created", created,
		"password_file", filepath.Join(a.cfg.DataDir, devAdminPasswordFile))
	return nil
}

// devAdminPassword reads the development admin's password from the data
// folder, making a random one on first use.
func (a *App) devAdminPassword() (string, error) {
	path := filepath.Join(a.cfg.DataDir, devAdminPasswordFile)
	if b, err := os.ReadFile(path); err == nil {
		if p := strings.TrimSpace(string(b)); len(p) >= 16 {
			return p, nil
		}
	}
	raw := make([]byte, 15)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	p := strings.ToLower(base32.StdEncoding.EncodeToString(raw))
	if err := os.MkdirAll(a.cfg.DataDir, 0o700); err != nil {
		return "", fmt.Errorf("create data folder: %w", err)
	}
	if err := os.WriteFile(path, []byte(p+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write the development admin's password: %w", err)
	}
	return p, nil
}
