package holdemdb

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// HoldemSettingsKey is the key of the Casino Hold'em settings in the
// settings table. Its value is JSON with any of the fields
//
//	{"ante": {"ROYAL_FLUSH": 100, ...}, "bonus": {"PAIR": 7, ...},
//	 "minAnte": 10000, "maxAnte": 10000000, "maxBonus": 2500000,
//	 "decisionTimeoutNs": 30000000000}
//
// (amounts in tiyn); a field left out keeps its default, and so does a
// paytable line left out.
const HoldemSettingsKey = "holdem"

// settingRow is a row of settings.
type settingRow struct {
	Key       string `gorm:"primaryKey"`
	Value     string
	UpdatedAt time.Time
}

func (settingRow) TableName() string { return "settings" }

// HoldemSettings returns the Casino Hold'em settings stored under
// HoldemSettingsKey laid over def, validated; def itself when none are
// stored. Invalid stored settings are an Invalid error naming the problem.
func (r *Repo) HoldemSettings(ctx context.Context, def holdem.Config) (holdem.Config, error) {
	var row settingRow
	err := r.gorm(ctx).Where("key = ?", HoldemSettingsKey).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return def, nil
	}
	if err != nil {
		return holdem.Config{}, sqldb.MapErr(err, "setting")
	}
	j := configToJSON(def)
	ante, bonus := maps.Clone(j.Ante), maps.Clone(j.Bonus)
	j.Ante, j.Bonus = nil, nil
	if err := json.Unmarshal([]byte(row.Value), &j); err != nil {
		return holdem.Config{}, errs.R(errs.Invalid, holdem.ReasonInvalidConfig, "the stored casino hold'em settings are not valid JSON: %v", err)
	}
	maps.Copy(ante, j.Ante)
	maps.Copy(bonus, j.Bonus)
	j.Ante, j.Bonus = ante, bonus
	cfg, err := configFromJSON(j)
	if err != nil {
		return holdem.Config{}, errs.R(errs.Invalid, holdem.ReasonInvalidConfig, "the stored casino hold'em settings: %v", err)
	}
	if err := cfg.Validate(); err != nil {
		return holdem.Config{}, err
	}
	return cfg, nil
}

// SaveHoldemSettings validates cfg and stores it whole under
// HoldemSettingsKey. Running servers read the settings when they start.
func (r *Repo) SaveHoldemSettings(ctx context.Context, cfg holdem.Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	v, err := marshalJSON(configToJSON(cfg))
	if err != nil {
		return errs.Wrap(err, "the settings could not be stored")
	}
	row := settingRow{Key: HoldemSettingsKey, Value: v, UpdatedAt: sqldb.StoredTime(time.Now())}
	err = r.gorm(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "key"}},
		DoUpdates: clause.AssignmentColumns([]string{"value", "updated_at"}),
	}).Create(&row).Error
	return sqldb.MapErr(err, "setting")
}

func configToJSON(c holdem.Config) holdemConfigJSON {
	return holdemConfigJSON{
		Ante: paytableToJSON(c.Ante), Bonus: paytableToJSON(c.Bonus),
		MinAnte: int64(c.MinAnte), MaxAnte: int64(c.MaxAnte), MaxBonus: int64(c.MaxBonus),
		DecisionTimeoutNs: int64(c.DecisionTimeout),
	}
}

func configFromJSON(j holdemConfigJSON) (holdem.Config, error) {
	c := holdem.Config{
		MinAnte: money.Amount(j.MinAnte), MaxAnte: money.Amount(j.MaxAnte), MaxBonus: money.Amount(j.MaxBonus),
		DecisionTimeout: time.Duration(j.DecisionTimeoutNs),
	}
	var err error
	if c.Ante, err = paytableFromJSON(j.Ante); err != nil {
		return holdem.Config{}, err
	}
	if c.Bonus, err = paytableFromJSON(j.Bonus); err != nil {
		return holdem.Config{}, err
	}
	return c, nil
}
