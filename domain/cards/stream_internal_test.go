package cards

import "testing"

// TestIntNRejects drives IntN with chosen bytes to show the rejection
// sampler's exact byte consumption, which the statistical tests cannot see.
func TestIntNRejects(t *testing.T) {
	tests := []struct {
		name     string
		n        int
		bytes    []byte
		want     int
		consumed int
	}{
		{"52 accepts 207", 52, []byte{207}, 207 % 52, 1},
		{"52 rejects 208..255", 52, []byte{208, 255, 230, 0}, 0, 4},
		{"51 rejects only 255", 51, []byte{255, 254}, 254 % 51, 2},
		{"3 rejects 255", 3, []byte{255, 255, 254}, 254 % 3, 3},
		{"2 never rejects", 2, []byte{255}, 1, 1},
		{"256 never rejects", 256, []byte{255}, 255, 1},
		{"129 rejects 129..255", 129, []byte{129, 200, 128}, 128, 3},
		{"1 consumes a byte", 1, []byte{255}, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Stream{}
			copy(s.block[:], tt.bytes)
			got := s.IntN(tt.n)
			if got != tt.want || s.used != tt.consumed {
				t.Errorf("IntN(%d) over % x = %d after %d bytes, want %d after %d", tt.n, tt.bytes, got, s.used, tt.want, tt.consumed)
			}
		})
	}
}

func TestStreamBlockCounter(t *testing.T) {
	s := NewStream(Seed{}, nil)
	for range 2*SeedSize + 1 {
		s.Byte()
	}
	if s.counter != 3 || s.used != 1 {
		t.Errorf("after 65 bytes: counter %d, used %d; want 3 blocks computed and 1 byte of the third used", s.counter, s.used)
	}
}
