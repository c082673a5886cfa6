package cards_test

import (
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
)

func TestCardNumbering(t *testing.T) {
	tests := []struct {
		name string
		card cards.Card
		want string
		num  uint8
	}{
		{"lowest", cards.New(cards.Two, cards.Clubs), "2c", 0},
		{"two of spades", cards.New(cards.Two, cards.Spades), "2s", 3},
		{"three of clubs", cards.New(cards.Three, cards.Clubs), "3c", 4},
		{"ten of diamonds", cards.New(cards.Ten, cards.Diamonds), "Td", 33},
		{"ace of hearts", cards.New(cards.Ace, cards.Hearts), "Ah", 50},
		{"highest", cards.New(cards.Ace, cards.Spades), "As", 51},
		{"invalid", cards.Card(52), "??", 52},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.card.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if uint8(tt.card) != tt.num {
				t.Errorf("number = %d, want %d", tt.card, tt.num)
			}
		})
	}
}

func TestEveryCardRoundTrips(t *testing.T) {
	var seen cards.Set
	for c := cards.Card(0); c < cards.NumCards; c++ {
		if !c.Valid() {
			t.Fatalf("card %d not valid", c)
		}
		if cards.New(c.Rank(), c.Suit()) != c {
			t.Errorf("New(Rank, Suit) of %d = %d", c, cards.New(c.Rank(), c.Suit()))
		}
		got, err := cards.Parse(c.String())
		if err != nil || got != c {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.String(), got, err, c)
		}
		if seen.Has(c) {
			t.Errorf("card %v seen twice", c)
		}
		seen = seen.With(c)
	}
	if seen != cards.SetOf(mustList(t, "2c 2d 2h 2s")...)|seen {
		t.Errorf("set misses low cards")
	}
	if cards.Card(cards.NumCards).Valid() {
		t.Errorf("card 52 reported valid")
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"canonical", "Ah", "Ah"},
		{"ten", "Td", "Td"},
		{"deuce", "2c", "2c"},
		{"lower rank", "ks", "Ks"},
		{"upper suit", "QH", "Qh"},
		{"lower everything", "jd", "Jd"},
		{"upper ten", "TC", "Tc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := cards.Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if c.String() != tt.want {
				t.Errorf("Parse(%q) = %v, want %v", tt.in, c, tt.want)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		mention string // a fragment the message must contain
	}{
		{"ten written 10", "10d", "ten is written T"},
		{"bad suit", "Ax", `"Ax" is not a card`},
		{"empty", "", "a card is missing"},
		{"rank only", "A", `"A" is not a card`},
		{"extra character", "Ahh", `"Ahh" is not a card`},
		{"two cards", "AhKd", `"AhKd" is not a card`},
		{"leading space", " Ah", "is not a card"},
		{"suit first", "hA", "is not a card"},
		{"one as ace", "1h", "is not a card"},
		{"zero", "0h", "is not a card"},
		{"unicode suit", "A♥", "is not a card"},
		{"nul bytes", "\x00\x00", "is not a card"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := cards.Parse(tt.in)
			assertInvalid(t, err, "INVALID_CARD", tt.mention)
			if c != 0 {
				t.Errorf("Parse(%q) returned card %v along with the error", tt.in, c)
			}
		})
	}
}

func TestParseList(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // Format of the result
		n    int
	}{
		{"empty", "", "", 0},
		{"only separators", " , ", "", 0},
		{"one", "Ah", "Ah", 1},
		{"run together", "AhKd7c", "Ah Kd 7c", 3},
		{"spaces", "Ah Kd 7c", "Ah Kd 7c", 3},
		{"commas", "Ah,Kd,7c", "Ah Kd 7c", 3},
		{"comma space", "Ah, Kd, 7c", "Ah Kd 7c", 3},
		{"tabs and newlines", "Ah\tKd\n7c\r\n", "Ah Kd 7c", 3},
		{"mixed case", "ahKD7C", "Ah Kd 7c", 3},
		{"surrounding space", "  Ah Kd  ", "Ah Kd", 2},
		{"full board", "2c3d4h5s6c", "2c 3d 4h 5s 6c", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, err := cards.ParseList(tt.in)
			if err != nil {
				t.Fatalf("ParseList(%q): %v", tt.in, err)
			}
			if len(cs) != tt.n {
				t.Errorf("ParseList(%q) has %d cards, want %d", tt.in, len(cs), tt.n)
			}
			if got := cards.Format(cs); got != tt.want {
				t.Errorf("Format(ParseList(%q)) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseListRejects(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		reason  string
		mention string
	}{
		{"ten written 10", "Ah 10d", "INVALID_CARD", `card 2 of "Ah 10d": "10d" is not a card: ten is written T`},
		{"ten run together", "Ah10d", "INVALID_CARD", "ten is written T"},
		{"bad suit", "Ax", "INVALID_CARD", `card 1 of "Ax": "Ax" is not a card`},
		{"dangling rank", "A", "INVALID_CARD", `"A" is not a card`},
		{"dangling suit", "Ahh", "INVALID_CARD", `card 2 of "Ahh": "h" is not a card`},
		{"split card", "A h", "INVALID_CARD", `"A " is not a card`},
		{"bad second card", "AhKx7c", "INVALID_CARD", `card 2 of "AhKx7c": "Kx" is not a card`},
		{"semicolon", "Ah;Kd", "INVALID_CARD", `";K" is not a card`},
		{"duplicate", "AhAh", "DUPLICATE_CARD", `card Ah appears twice in "AhAh"`},
		{"duplicate other case", "Ah kd aH", "DUPLICATE_CARD", "card Ah appears twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, err := cards.ParseList(tt.in)
			assertInvalid(t, err, tt.reason, tt.mention)
			if cs != nil {
				t.Errorf("ParseList(%q) returned %v along with the error", tt.in, cs)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		name string
		in   []cards.Card
		want string
	}{
		{"nil", nil, ""},
		{"one", []cards.Card{cards.MustParseList("Ah")[0]}, "Ah"},
		{"several", cards.MustParseList("AhKd7c"), "Ah Kd 7c"},
		{"invalid card shown", []cards.Card{cards.MustParseList("2c")[0], 60}, "2c ??"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cards.Format(tt.in); got != tt.want {
				t.Errorf("Format = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRankAndSuitNames(t *testing.T) {
	if got := cards.Ace.String() + cards.Ten.String() + cards.Two.String(); got != "AT2" {
		t.Errorf("rank strings = %q", got)
	}
	if cards.Queen.Name() != "queen" || cards.Rank(13).Name() != "?" || cards.Rank(13).String() != "?" {
		t.Errorf("rank names wrong")
	}
	if got := cards.Clubs.String() + cards.Diamonds.String() + cards.Hearts.String() + cards.Spades.String(); got != "cdhs" {
		t.Errorf("suit strings = %q", got)
	}
	if cards.Suit(4).String() != "?" {
		t.Errorf("invalid suit string")
	}
}

func TestMustParsePanics(t *testing.T) {
	for _, f := range []func(){
		func() { cards.MustParseList("10d") },
		func() { cards.MustParseList("AhAh") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("no panic on bad input")
				}
			}()
			f()
		}()
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"Ah", "Td", "2c", "as", "QH", "10d", "Ax", "", "A", "Ahh", "\xff\xfe", "A♥"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := cards.Parse(s)
		if err != nil {
			if !errs.Is(err, errs.Invalid) || errs.ReasonOf(err) != "INVALID_CARD" {
				t.Fatalf("Parse(%q) error %v is not INVALID_CARD", s, err)
			}
			return
		}
		if !c.Valid() {
			t.Fatalf("Parse(%q) = invalid card %d", s, c)
		}
		if !strings.EqualFold(c.String(), s) {
			t.Fatalf("Parse(%q) = %v: not the same text", s, c)
		}
		back, err := cards.Parse(c.String())
		if err != nil || back != c {
			t.Fatalf("Parse(String(%v)) = %v, %v", c, back, err)
		}
	})
}

func FuzzParseList(f *testing.F) {
	for _, s := range []string{"", " ", "Ah", "AhKd7c", "Ah Kd, 7c", "ahKD\t7C\n", "Ah 10d", "AhAh", "Ahh", "A h", "2c3d4h5s6c7h8d9sTcJdQhKsAc", "\xffAh"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := cards.ParseList(s)
		if err != nil {
			if !errs.Is(err, errs.Invalid) {
				t.Fatalf("ParseList(%q) error %v is not Invalid", s, err)
			}
			if r := errs.ReasonOf(err); r != "INVALID_CARD" && r != "DUPLICATE_CARD" {
				t.Fatalf("ParseList(%q) reason %q", s, r)
			}
			return
		}
		var seen cards.Set
		for _, c := range cs {
			if !c.Valid() || seen.Has(c) {
				t.Fatalf("ParseList(%q) = %v: invalid or repeated card", s, cs)
			}
			seen = seen.With(c)
		}
		text := cards.Format(cs)
		back, err := cards.ParseList(text)
		if err != nil {
			t.Fatalf("ParseList(Format(%v)) = %v", cs, err)
		}
		if cards.Format(back) != text || len(back) != len(cs) {
			t.Fatalf("round trip of %q: %v then %v", s, cs, back)
		}
		for i := range cs {
			if back[i] != cs[i] {
				t.Fatalf("round trip of %q: %v then %v", s, cs, back)
			}
		}
	})
}

// assertInvalid checks that err is an errs.Invalid error with the given
// reason whose message contains mention.
func assertInvalid(t *testing.T, err error, reason, mention string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", reason)
	}
	if !errs.Is(err, errs.Invalid) {
		t.Errorf("code %s, want %s (%v)", errs.CodeOf(err), errs.Invalid, err)
	}
	if got := errs.ReasonOf(err); got != reason {
		t.Errorf("reason %q, want %q (%v)", got, reason, err)
	}
	if !strings.Contains(err.Error(), mention) {
		t.Errorf("message %q does not mention %q", err.Error(), mention)
	}
}

func mustList(t *testing.T, s string) []cards.Card {
	t.Helper()
	cs, err := cards.ParseList(s)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}
