package odds

// The reasons (extensions.reason) of the errors this package returns: part
// of the API (docs/frontend.md lists them), so a value never changes. A
// malformed or repeated card is cards' (cards.ReasonInvalidCard,
// cards.ReasonDuplicateCard).
const (
	ReasonWrongPositionCount = "WRONG_POSITION_COUNT"
	ReasonWrongBoardSize     = "WRONG_BOARD_SIZE"
	ReasonWrongSampleCount   = "WRONG_SAMPLE_COUNT"
)
