// Package holdemdb stores the Casino Hold'em aggregate over sqldb: hands,
// pending seeds and the game's settings, moving the hands' money through
// ledgerdb in the hand's transaction. Its GORM rows stay unexported.
package holdemdb
