module github.com/gpuimg/gpuimg

go 1.26.8

require (
	codeberg.org/sbinet/npyio v0.14.0
	github.com/go-audio/audio v1.0.0
	github.com/go-audio/wav v1.1.0
	github.com/klauspost/compress v1.20.3
	go.yaml.in/yaml/v3 v3.0.6
	gocv.io/x/gocv v0.31.0
	golang.org/x/image v0.47.0
	gonum.org/v1/gonum v0.17.0
	gorgonia.org/cu v0.9.6
)

require (
	github.com/go-audio/riff v1.0.0 // indirect
	github.com/google/uuid v1.1.1 // indirect
	github.com/nlpodyssey/gopickle v0.3.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	golang.org/x/text v0.43.0 // indirect
)
