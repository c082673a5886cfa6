package graph

import "github.com/pokertote/pokertote/domain/errs"

// nullIfNotFound finishes a lookup behind a nullable field: NOT_FOUND is
// answered with null (the schema's "no such thing"), any other error is
// passed on, and a found value is converted.
func nullIfNotFound[T, M any](v T, err error, convert func(T) (*M, error)) (*M, error) {
	if errs.Is(err, errs.NotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return convert(v)
}
