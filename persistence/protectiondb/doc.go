// Package protectiondb stores the player-protection aggregate over sqldb:
// limits, exclusions, the exclusion register, the day, week and month
// counters and the sessions of play, and the guard that checks and counts
// a post's flows inside the money's transaction (ledgerdb's posts, the
// tote's bet batch). Its GORM rows stay unexported; what those
// transactions read and write of it is exported and says why.
package protectiondb
