// Package account holds Pokertote's players, staff and the rules around
// them: registration, password hashing, login throttling, the age gate and
// the age verification an admin must approve before a player may stake money.
//
// Ages and calendar days are reckoned in the operator's time zone (a setting,
// Asia/Almaty by default), never in UTC or the server's zone: a player born on
// 2004-06-15 may stake from 00:00 Almaty time on 2025-06-15, while UTC still
// says 2025-06-14. Dates of birth are civil dates (type Date), not instants,
// so no time zone can shift them by a day.
package account
