package money_test

import (
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

func TestParseAmount(t *testing.T) {
	good := []struct {
		in   string
		want money.Amount
	}{
		{"0", 0}, {"100", 10000}, {"100.5", 10050}, {"100.05", 10005}, {"-3.25", -325}, {"0.01", 1},
		{"92233720368547758.07", 9223372036854775807},
	}
	for _, c := range good {
		t.Run(c.in, func(t *testing.T) {
			got, err := money.ParseAmount(c.in)
			if err != nil || got != c.want {
				t.Fatalf("ParseAmount(%q) = %d, %v; want %d", c.in, got, err, c.want)
			}
		})
	}
	bad := []string{"", "-", ".5", "1.", "1.234", "1e3", " 1", "1 ", "+1", "0x10", "1,5", "--1", "92233720368547758.08", "99999999999999999999",
		"-0", "-0.00", "-0.0", "00100.00", "00", "01", "-01.50"}
	for _, in := range bad {
		t.Run("bad "+in, func(t *testing.T) {
			if _, err := money.ParseAmount(in); !errs.Is(err, errs.Invalid) {
				t.Fatalf("ParseAmount(%q) error = %v, want BAD_USER_INPUT", in, err)
			}
		})
	}
}

func TestAmountString(t *testing.T) {
	for a, want := range map[money.Amount]string{0: "0.00", 1: "0.01", -50: "-0.50", 123405: "1234.05"} {
		if got := a.String(); got != want {
			t.Errorf("Amount(%d).String() = %q, want %q", a, got, want)
		}
	}
}

func TestTenge(t *testing.T) {
	for n, want := range map[int64]money.Amount{0: 0, 1: 100, -3: -300, 1500: 150000} {
		if got := money.Tenge(n); got != want {
			t.Errorf("Tenge(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestCoef(t *testing.T) {
	if got := money.CoefOf(9700, 3000); got != 323 {
		t.Fatalf("CoefOf(97.00, 30.00) = %v, want 3.23", got)
	}
	if got := money.Coef(323).Pay(1001); got != 3233 {
		t.Fatalf("3.23 pays %v on 10.01, want 32.33", got)
	}
	if got := money.BasisPoints(300).Of(12345); got != 370 {
		t.Fatalf("3%% of 123.45 = %v, want 3.70", got)
	}
}

func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"0", "1.5", "-2.05", "1e9", "92233720368547758.07"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := money.ParseAmount(s)
		if err != nil {
			if !errs.Is(err, errs.Invalid) {
				t.Fatalf("ParseAmount(%q) error code %v", s, errs.CodeOf(err))
			}
			return
		}
		back, err := money.ParseAmount(a.String())
		if err != nil || back != a {
			t.Fatalf("round trip %q -> %d -> %q -> %d, %v", s, a, a.String(), back, err)
		}
		// One spelling per amount, up to the decimals written.
		if w, _, _ := strings.Cut(s, "."); w != strings.Split(a.String(), ".")[0] {
			t.Fatalf("round trip %q -> %d -> %q -> %d, %v", s, a, a.String(), back, err)
		}
	})
}
