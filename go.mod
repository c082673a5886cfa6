module github.com/pokertote/pokertote

go 1.26.8
