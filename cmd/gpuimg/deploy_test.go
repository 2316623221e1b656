package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// indexedJob is the part of a Kubernetes batch/v1 Job that deploy/kubernetes's
// manifest uses, field for field as the API names them: decoding with KnownFields
// refuses any other (a misspelt field), the schema check kubectl's client-side dry
// run cannot do without a cluster to ask.
type indexedJob struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name   string            `yaml:"name"`
		Labels map[string]string `yaml:"labels"`
	} `yaml:"metadata"`
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Parallelism    int    `yaml:"parallelism"`
		BackoffLimit   int    `yaml:"backoffLimit"`
		Template       struct {
			Metadata struct {
				Labels map[string]string `yaml:"labels"`
			} `yaml:"metadata"`
			Spec struct {
				RestartPolicy string `yaml:"restartPolicy"`
				Containers    []struct {
					Name  string `yaml:"name"`
					Image string `yaml:"image"`
					Env   []struct {
						Name  string `yaml:"name"`
						Value string `yaml:"value"`
					} `yaml:"env"`
					Command   []string `yaml:"command"`
					Args      []string `yaml:"args"`
					Resources struct {
						Limits map[string]string `yaml:"limits"`
					} `yaml:"resources"`
					VolumeMounts []struct {
						Name      string `yaml:"name"`
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
				Volumes []struct {
					Name                  string `yaml:"name"`
					PersistentVolumeClaim struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// The Indexed Job manifest is a valid Job of that shape (one GPU a pod, N shares
// for N completions), and its command, run for every index on the CPU device over
// a folder of images, writes each output exactly once.
func TestIndexedJobManifest(t *testing.T) {
	raw, err := os.ReadFile("../../deploy/kubernetes/indexed-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	var j indexedJob
	if err := dec.Decode(&j); err != nil {
		t.Fatalf("indexed-job.yaml: %v", err)
	}
	s := j.Spec
	if j.APIVersion != "batch/v1" || j.Kind != "Job" || j.Metadata.Name == "" || s.CompletionMode != "Indexed" ||
		s.Template.Spec.RestartPolicy != "Never" || len(s.Template.Spec.Containers) != 1 {
		t.Fatalf("not an Indexed Job of one container: %+v", j)
	}
	c := s.Template.Spec.Containers[0]
	if c.Resources.Limits["nvidia.com/gpu"] != "1" {
		t.Errorf("limits %v: want one GPU a pod", c.Resources.Limits)
	}
	shards := 0
	for _, e := range c.Env {
		if e.Name == "SHARDS" {
			shards, _ = strconv.Atoi(e.Value)
		}
	}
	if shards < 1 || s.Completions != shards || s.Parallelism != shards {
		t.Fatalf("SHARDS %d, completions %d, parallelism %d: want them equal", shards, s.Completions, s.Parallelism)
	}
	mounts := map[string]bool{}
	for _, v := range s.Template.Spec.Volumes {
		mounts[v.Name] = v.PersistentVolumeClaim.ClaimName != ""
	}
	for _, m := range c.VolumeMounts {
		if !mounts[m.Name] {
			t.Errorf("volume mount %s has no volume with a claim", m.Name)
		}
	}
	if len(c.Command) != 2 || c.Command[1] != "-c" || len(c.Args) != 1 {
		t.Fatalf("command %q args %q: want a shell running one line", c.Command, c.Args)
	}
	line := c.Args[0]
	if !strings.Contains(line, `-shard "${JOB_COMPLETION_INDEX}/${SHARDS}"`) {
		t.Fatalf("%q does not take its share by the job's index", line)
	}
	// The line for each index, with the volume's folders here.
	in, out := t.TempDir(), t.TempDir()
	for _, n := range []string{"camera.png", "chelsea.png", "coffee.png", "brick.png"} {
		b, err := os.ReadFile(filepath.Join(images, n))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(in, n), b, 0o644)
	}
	words := strings.Fields(strings.ReplaceAll(line, `"`, ""))
	if len(words) < 3 || words[0] != "exec" || words[1] != "gpuimg" {
		t.Fatalf("%q: want exec gpuimg ...", line)
	}
	for k := 0; k < shards; k++ {
		var args []string
		for _, w := range words[2:] {
			w = strings.NewReplacer("${JOB_COMPLETION_INDEX}", strconv.Itoa(k), "${SHARDS}", strconv.Itoa(shards),
				"/data/in", in, "/data/out/", out+"/").Replace(w)
			args = append(args, w)
		}
		if code, _, errs := runCLI(append(args, "-device", "cpu")...); code != 0 {
			t.Fatalf("index %d: %v: %d %s", k, args, code, errs)
		}
	}
	entries, _ := os.ReadDir(out)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	sort.Strings(got)
	if strings.Join(got, " ") != "brick.png camera.png chelsea.png coffee.png" {
		t.Errorf("the %d pods wrote %v", shards, got)
	}
}
