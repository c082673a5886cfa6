package sqldb

import (
	"context"
	"fmt"
)

// A riskySetting is a Postgres server setting under which the database
// keeps money, or plans the service's reads, less safely than this service
// assumes; Open logs a warning for each one the server has.
type riskySetting struct {
	name, value string
	// risk is what the operator reads in the warning.
	risk string
}

var riskySettings = []riskySetting{
	{"fsync", "off", "a crash of the database host can lose or corrupt committed bets and transfers"},
	{"synchronous_commit", "off", "a crash of the database can lose bets and transfers already answered as committed"},
	{"full_page_writes", "off", "a crash during a write can leave torn pages in the ledger"},
	{"autovacuum", "off", "no table statistics and no reclaimed rows: the ledger's reads (the regulator feed's legs, the reports) fall back to sequential scans whose cost grows with the ledger"},
}

// SettingRisk is one risky setting a server has.
type SettingRisk struct {
	Name, Value, Risk string
}

// SettingRisks returns the risky settings among settings (name to value,
// as pg_settings reports them).
func SettingRisks(settings map[string]string) []SettingRisk {
	var out []SettingRisk
	for _, r := range riskySettings {
		if v, ok := settings[r.name]; ok && v == r.value {
			out = append(out, SettingRisk{Name: r.name, Value: v, Risk: r.risk})
		}
	}
	return out
}

// ServerSettings reads, on Postgres, the settings SettingRisks judges
// (none on SQLite).
func (db *DB) ServerSettings(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	if db.dialect != Postgres {
		return out, nil
	}
	names := make([]string, len(riskySettings))
	for i, r := range riskySettings {
		names[i] = r.name
	}
	var rows []struct{ Name, Setting string }
	if err := db.gorm.WithContext(ctx).Raw(`SELECT name, setting FROM pg_settings WHERE name IN ?`, names).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("persistence: read the server's settings: %w", err)
	}
	for _, r := range rows {
		out[r.Name] = r.Setting
	}
	return out, nil
}

// warnSettings logs a warning for each risky setting of the server. A
// failed read is logged too: the check must not keep the service down.
func (db *DB) warnSettings(ctx context.Context) {
	settings, err := db.ServerSettings(ctx)
	if err != nil {
		db.log.WarnContext(ctx, "could not check the database's settings", "err", err)
		return
	}
	for _, r := range SettingRisks(settings) {
		db.log.WarnContext(ctx, "the database runs with a risky setting", "setting", r.Name, "value", r.Value, "risk", r.Risk)
	}
}
