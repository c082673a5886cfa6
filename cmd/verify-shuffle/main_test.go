package main

import (
	"bytes"
	"strings"
	"testing"
)

const (
	seed       = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	commitment = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
)

func TestRunDeals(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{
			name: "tote, checked",
			args: []string{"-server-seed", seed, "-commitment", commitment, "-public", "pokertote", "-positions", "2"},
			want: `server seed:  000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
commitment:   630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd (matches the server seed)
public seed:  706f6b6572746f7465 (9 bytes)
deck:         3d Ks Js Qc Ad 4h Jh 6h 7d 2d 9s 5h 3c Kc Ts Td 6s 9h 5d Ah Qh 7c 3h 6d Qd Kh 8h 7h 7s 2h 8c 3s 4s As 5s 8d Tc 4c Jd 2s 2c 5c Jc Ac 6c 9d 8s 9c Kd 4d Th Qs
position 1    3d Js
position 2    Ks Qc
burn:         Ad
flop:         4h Jh 6h
burn:         7d
turn:         2d
burn:         9s
river:        5h
`,
		},
		{
			name: "holdem, public as hex",
			args: []string{"-server-seed", seed, "-public-hex", "706f6b6572746f7465", "-boxes", "1"},
			want: `server seed:  000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
commitment:   630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd (not checked: pass -commitment to check it)
public seed:  706f6b6572746f7465 (9 bytes)
deck:         3d Ks Js Qc Ad 4h Jh 6h 7d 2d 9s 5h 3c Kc Ts Td 6s 9h 5d Ah Qh 7c 3h 6d Qd Kh 8h 7h 7s 2h 8c 3s 4s As 5s 8d Tc 4c Jd 2s 2c 5c Jc Ac 6c 9d 8s 9c Kd 4d Th Qs
box 1         3d Js
dealer:       Ks Qc
flop:         Ad 4h Jh
turn:         6h
river:        7d
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if err := run(tt.args, &out, &errOut); err != nil {
				t.Fatalf("run: %v (%s)", err, errOut.String())
			}
			if out.String() != tt.want {
				t.Errorf("output\n%s\nwant\n%s", out.String(), tt.want)
			}
		})
	}
}

func TestRunRejects(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		mention string
	}{
		{"no seed", nil, "-server-seed is required"},
		{"bad seed", []string{"-server-seed", "xyz"}, "64 hexadecimal characters"},
		{"wrong commitment", []string{"-server-seed", seed, "-commitment", strings.Repeat("0", 64)}, "does not match the commitment"},
		{"bad commitment", []string{"-server-seed", seed, "-commitment", "00"}, "commitment"},
		{"two public seeds", []string{"-server-seed", seed, "-public", "a", "-public-hex", "61"}, "once"},
		{"bad public hex", []string{"-server-seed", seed, "-public-hex", "6"}, "-public-hex"},
		{"too many positions", []string{"-server-seed", seed, "-positions", "11"}, "-positions must be 2..10"},
		{"too few positions", []string{"-server-seed", seed, "-positions", "1"}, "-positions must be 2..10"},
		{"three boxes", []string{"-server-seed", seed, "-boxes", "3"}, "-boxes must be 1..2"},
		{"both deals", []string{"-server-seed", seed, "-positions", "6", "-boxes", "1"}, "not both"},
		{"stray argument", []string{"-server-seed", seed, "extra"}, "unexpected argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(tt.args, &out, &errOut)
			if err == nil || !strings.Contains(err.Error(), tt.mention) {
				t.Errorf("error %v, want one mentioning %q", err, tt.mention)
			}
			if out.Len() != 0 {
				t.Errorf("printed a deal despite the error:\n%s", out.String())
			}
		})
	}
}
