package webhook

import (
	"context"

	"github.com/pokertote/pokertote/domain/regfeed"
)

// FeedStream is the regulator feed's place among the streams an endpoint
// keeps a cursor on: table ids are positive, so it takes none of theirs.
// Its records' webhook ids read "reg_<seq>".
const FeedStream int64 = -1

// FeedSource is the Source over the regulator's feed: one stream,
// FeedStream, whose seq is the records' Seq.
type FeedSource struct {
	Feed regfeed.Store
}

var _ Source = FeedSource{}

// Tables implements Source: the feed's one stream and its head.
func (s FeedSource) Tables(ctx context.Context) ([]TableHead, error) {
	head, err := s.Feed.Head(ctx)
	if err != nil {
		return nil, err
	}
	return []TableHead{{TableID: FeedStream, LastSeq: head}}, nil
}

// After implements Source.
func (s FeedSource) After(ctx context.Context, _ int64, after int64, limit int) ([]Message, error) {
	recs, err := s.Feed.After(ctx, after, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Message, len(recs))
	for i, r := range recs {
		out[i] = Message{ID: EventID(FeedStream, r.Seq), Type: Type(r.Type), Timestamp: r.At.UTC(), Data: mustJSON(r), TableID: FeedStream, Seq: r.Seq}
	}
	return out, nil
}

// Created implements Source: the feed has no creation event; an endpoint
// new to the stream starts before its first record.
func (s FeedSource) Created(context.Context, int64) (Message, error) {
	return Message{ID: EventID(FeedStream, 0), TableID: FeedStream, Seq: 0}, nil
}

// Sources joins the tables' outbox and the regulator's feed into the one
// Source an endpoint is served from: FeedStream is the feed's, every other
// stream the tables'.
type Sources struct {
	Tote Source
	Feed Source
}

var _ Source = Sources{}

// Tables implements Source.
func (s Sources) Tables(ctx context.Context) ([]TableHead, error) {
	ts, err := s.Tote.Tables(ctx)
	if err != nil {
		return nil, err
	}
	fs, err := s.Feed.Tables(ctx)
	return append(ts, fs...), err
}

// After implements Source.
func (s Sources) After(ctx context.Context, stream, after int64, limit int) ([]Message, error) {
	return s.of(stream).After(ctx, stream, after, limit)
}

// Created implements Source.
func (s Sources) Created(ctx context.Context, stream int64) (Message, error) {
	return s.of(stream).Created(ctx, stream)
}

func (s Sources) of(stream int64) Source {
	if stream == FeedStream {
		return s.Feed
	}
	return s.Tote
}
