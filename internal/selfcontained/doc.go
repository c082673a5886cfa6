// Package selfcontained holds the test that keeps the repository readable
// on its own: no reference to a tracker its readers cannot see, no link
// out of the repository, no compiled binary committed. It has no code.
package selfcontained
