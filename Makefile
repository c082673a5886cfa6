# The targets CI calls too (.ci/run). Plain `go` commands work as well.
.PHONY: generate lint test bench run

generate:
	go generate ./...

lint:
	go vet ./...
	go tool staticcheck ./...

test:
	go test -race ./...

bench:
	go test -run '^$$' -bench . -benchmem ./domain/...

run:
	go run ./cmd/server
