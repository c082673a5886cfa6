package graph

// SharedWrites is how many "next" messages wsTransport wrote from shared
// renderings so far (in this process).
func SharedWrites() int64 { return sharedWrites.Load() }
