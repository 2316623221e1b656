package apitest

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"image"
	"io"
	"io/fs"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Every exported function, and every method of *gpuimage.Image, called with
// random arguments (nil, empty, closed and aliased images of every depth and
// channel count and of odd sizes, views, 32F pixels that are NaN, infinite, huge or
// denormal, negative, huge, NaN and infinite numbers,
// nil and ragged slices, unknown names and codes) returns, with an error or not:
// none panics and none hangs. GPUIMG_FUZZ_ROUNDS multiplies the rounds.
func TestNoPanics(t *testing.T) {
	r := tu.Rand(t)
	rounds := 1
	if n, err := fmt.Sscan(os.Getenv("GPUIMG_FUZZ_ROUNDS"), &rounds); n != 1 || err != nil || rounds < 1 {
		rounds = 1
	}
	names := make([]string, 0, len(exported))
	for n := range exported {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, dev := range devices(t) {
		g := &argGen{r: r, dev: dev}
		for _, name := range names {
			f := reflect.ValueOf(exported[name])
			for trial := 0; trial < 60*rounds; trial++ {
				for _, res := range callNoPanic(t, name, f, g.args(f.Type(), nil)) {
					g.useObject(t, res) // streams, filters and the like
				}
				g.close()
			}
		}
		for trial := 0; trial < 1500*rounds; trial++ {
			im := g.image()
			if im == nil {
				continue
			}
			v := reflect.ValueOf(im)
			m := v.Type().Method(r.Intn(v.NumMethod()))
			callNoPanic(t, "Image."+m.Name, m.Func, g.args(m.Type, &v))
			g.close()
		}
		for _, m := range []reflect.Value{reflect.ValueOf(dev), reflect.ValueOf(gpuimage.CPU())} {
			for trial := 0; trial < 20*rounds; trial++ {
				g.useObject(t, m)
				g.close()
			}
		}
	}
}

// useObject calls random methods of an object a function returned (not images,
// which have their own rounds, and not Close until the end), then closes it.
func (g *argGen) useObject(t *testing.T, obj reflect.Value) {
	if obj.Kind() != reflect.Ptr || obj.IsNil() || obj.Type() == imageType || obj.NumMethod() == 0 {
		return
	}
	var closeFn reflect.Value
	for i := 0; i < obj.NumMethod(); i++ {
		if obj.Type().Method(i).Name == "Close" {
			closeFn = obj.Method(i)
		}
	}
	name := obj.Type().Elem().String() + "."
	for k := 0; k < 6; k++ {
		m := obj.Type().Method(g.r.Intn(obj.NumMethod()))
		if m.Name == "Close" {
			continue
		}
		callNoPanic(t, name+m.Name, m.Func, g.args(m.Type, &obj))
	}
	if closeFn.IsValid() && obj.Interface() != any(gpuimage.CPU()) && obj.Type() != reflect.TypeOf(g.dev) {
		callNoPanic(t, name+"Close", closeFn, nil)
		m, _ := obj.Type().MethodByName(obj.Type().Method(g.r.Intn(obj.NumMethod())).Name)
		callNoPanic(t, name+m.Name+" after Close", m.Func, g.args(m.Type, &obj))
	}
}

// argGen makes random arguments; the images it makes are closed by close.
type argGen struct {
	r    *rand.Rand
	dev  *gpuimage.Device
	imgs []*gpuimage.Image
}

var imageType = reflect.TypeOf((*gpuimage.Image)(nil))

// args makes a call's arguments (recv first, for a method); a variadic function
// gets no variadic arguments.
func (g *argGen) args(ft reflect.Type, recv *reflect.Value) []reflect.Value {
	var args []reflect.Value
	for i := 0; i < ft.NumIn(); i++ {
		switch {
		case i == 0 && recv != nil:
			args = append(args, *recv)
		case ft.IsVariadic() && i == ft.NumIn()-1:
			args = append(args, reflect.MakeSlice(ft.In(i), 0, 0))
		default:
			args = append(args, g.value(ft.In(i)))
		}
	}
	return args
}

func (g *argGen) close() {
	for _, im := range g.imgs {
		im.Close()
	}
	g.imgs = g.imgs[:0]
}

func (g *argGen) image() *gpuimage.Image {
	switch g.r.Intn(12) {
	case 0:
		return nil
	case 1:
		return new(gpuimage.Image)
	case 2, 3:
		if len(g.imgs) > 0 {
			return g.imgs[g.r.Intn(len(g.imgs))] // the same image twice, or a view and its parent
		}
	}
	sizes := [][2]int{{1, 1}, {1, 7}, {7, 1}, {5, 9}, {33, 17}, {16, 16}, {2, 64}}
	s := sizes[g.r.Intn(len(sizes))]
	depths := []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16U, gpuimage.Depth16S, gpuimage.Depth32F, gpuimage.Depth32F}
	d, cn := depths[g.r.Intn(len(depths))], 1+g.r.Intn(4)
	data := tu.RandomBytes(g.r, d, s[0]*s[1]*cn)
	if d == gpuimage.Depth32F && g.r.Intn(3) == 0 {
		tu.SpecialFloats(g.r, data)
	}
	im, err := gpuimage.NewFromBytes(g.dev, s[0], s[1], gpuimage.MakeType(d, cn), data)
	if err != nil {
		panic(err)
	}
	g.imgs = append(g.imgs, im)
	switch g.r.Intn(8) {
	case 0:
		if s[0] > 2 && s[1] > 2 {
			v, err := im.Region(image.Rect(1, 1, s[1]-1, s[0]-1))
			if err != nil {
				panic(err)
			}
			g.imgs = append(g.imgs, v)
			return v
		}
	case 1:
		im.Close()
	}
	return im
}

func (g *argGen) value(t reflect.Type) reflect.Value {
	if t == imageType {
		return reflect.ValueOf(g.image())
	}
	v := reflect.New(t).Elem()
	if t == reflect.TypeOf(g.dev) {
		if g.r.Intn(5) > 0 {
			v.Set(reflect.ValueOf(g.dev))
		}
		return v
	}
	if t.Kind() == reflect.Interface {
		// Go images are random ones; writers discard; readers read random bytes
		// (or a valid file's start); one in eight readers and writers is nil. Other
		// interfaces stay nil.
		switch rd := bytes.NewReader(g.bytes()); {
		case t == reflect.TypeOf((*image.Image)(nil)).Elem():
			if m := g.goImage([]reflect.Type{reflect.TypeOf((*image.YCbCr)(nil)), reflect.TypeOf((*image.CMYK)(nil))}[g.r.Intn(2)]); !m.IsNil() {
				v.Set(m)
			}
			if g.r.Intn(3) == 0 {
				others := []image.Image{image.NewNRGBA(image.Rect(0, 0, 3, 5)), image.NewGray16(image.Rect(1, 1, 4, 2)),
					image.NewRGBA64(image.Rect(0, 0, 2, 2)), image.NewPaletted(image.Rect(0, 0, 2, 3), nil), image.NewAlpha(image.Rect(0, 0, 1, 1))}
				v.Set(reflect.ValueOf(others[g.r.Intn(len(others))]))
			}
		case g.r.Intn(8) == 0:
		case reflect.TypeOf(io.Discard).Implements(t):
			v.Set(reflect.ValueOf(io.Discard))
		case reflect.TypeOf(rd).Implements(t):
			v.Set(reflect.ValueOf(rd))
		}
		return v
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		ints := []int64{-1, 0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 100, 4096, -1 << 40, 1 << 62}
		x := ints[g.r.Intn(len(ints))]
		if g.r.Intn(3) == 0 {
			x = int64(g.r.Intn(160)) // codes and enumerations
		}
		if v.OverflowInt(x) {
			x = -1
		}
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(g.r.Intn(300)))
	case reflect.Float32, reflect.Float64:
		fs := []float64{0, 1, -1, 0.5, 2, 3, 1e-9, 1e30, math.NaN(), math.Inf(1), math.Inf(-1), 100, 0.1}
		v.SetFloat(fs[g.r.Intn(len(fs))])
	case reflect.Bool:
		v.SetBool(g.r.Intn(2) == 0)
	case reflect.String:
		ss := []string{"", "hann", "kaiser", "boxcar", "db2", "haar", "sym4", "bior1.3", "coif1", "nope",
			"periodization", "symmetric", "zero", "BGR2GRAY", "lowpass", "full", "same", "valid"}
		v.SetString(ss[g.r.Intn(len(ss))])
	case reflect.Slice:
		if g.r.Intn(6) == 0 {
			return v // nil
		}
		n := []int{0, 1, 2, 3, 5, 9}[g.r.Intn(6)]
		s := reflect.MakeSlice(t, n, n)
		for i := 0; i < n; i++ {
			s.Index(i).Set(g.value(t.Elem()))
		}
		return s
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			v.Index(i).Set(g.value(t.Elem()))
		}
	case reflect.Struct:
		if g.r.Intn(3) > 0 {
			for i := 0; i < v.NumField(); i++ {
				if t.Field(i).IsExported() {
					v.Field(i).Set(g.value(t.Field(i).Type))
				}
			}
		}
	case reflect.Ptr:
		if m := g.goImage(t); m.IsValid() {
			return m
		}
		// Nil, or a value of an options struct. Opaque types (made by their
		// constructors) and the standard library's other images stay nil: a zero
		// or random one is not something a caller can hold.
		if g.r.Intn(3) > 0 && !opaque(t.Elem()) && t.Elem().PkgPath() != "image" {
			p := reflect.New(t.Elem())
			p.Elem().Set(g.value(t.Elem()))
			return p
		}
	}
	return v // functions and channels stay nil
}

// goImage is, for *image.YCbCr and *image.CMYK, nil or a random image of an odd
// size (a sub-image at random coordinates half the time); for other types it is
// the zero Value.
func (g *argGen) goImage(t reflect.Type) reflect.Value {
	if t != reflect.TypeOf((*image.YCbCr)(nil)) && t != reflect.TypeOf((*image.CMYK)(nil)) {
		return reflect.Value{}
	}
	if g.r.Intn(6) == 0 {
		return reflect.Zero(t)
	}
	rect := image.Rect(0, 0, 1+g.r.Intn(20), 1+g.r.Intn(20))
	var m interface {
		image.Image
		SubImage(image.Rectangle) image.Image
	}
	if t == reflect.TypeOf((*image.CMYK)(nil)) {
		c := image.NewCMYK(rect)
		g.r.Read(c.Pix)
		m = c
	} else {
		ratios := []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio422,
			image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio440, image.YCbCrSubsampleRatio411, image.YCbCrSubsampleRatio410}
		y := image.NewYCbCr(rect, ratios[g.r.Intn(len(ratios))])
		g.r.Read(y.Y)
		g.r.Read(y.Cb)
		g.r.Read(y.Cr)
		m = y
	}
	if g.r.Intn(2) == 0 {
		x0, y0 := g.r.Intn(rect.Dx()), g.r.Intn(rect.Dy())
		return reflect.ValueOf(m.SubImage(image.Rect(x0, y0, x0+1+g.r.Intn(rect.Dx()-x0), y0+1+g.r.Intn(rect.Dy()-y0))))
	}
	return reflect.ValueOf(m)
}

// bytes is a random file: random bytes, or one of the image formats' signatures
// followed by random bytes.
func (g *argGen) bytes() []byte {
	heads := []string{"", "\x89PNG\r\n\x1a\n", "\xff\xd8\xff", "BM", "II*\x00", "GIF89a", "RIFF\x24\x00\x00\x00WAVEfmt ", "\x93NUMPY\x01\x00"}
	b := []byte(heads[g.r.Intn(len(heads))])
	for n := g.r.Intn(64); n > 0; n-- {
		b = append(b, byte(g.r.Intn(256)))
	}
	return b
}

// opaque reports a struct with no exported field.
func opaque(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).IsExported() {
			return false
		}
	}
	return true
}

// callNoPanic calls f and returns its results (none if it panicked).
func callNoPanic(t *testing.T, name string, f reflect.Value, args []reflect.Value) []reflect.Value {
	t.Helper()
	var res []reflect.Value
	tu.NoPanic(t, name+"("+describe(args)+")", time.Minute, func() {
		if f.Type().IsVariadic() {
			res = f.CallSlice(args)
		} else {
			res = f.Call(args)
		}
	})
	return res
}

func describe(args []reflect.Value) string {
	var s []string
	for _, a := range args {
		x := fmt.Sprintf("%v", a.Interface())
		if im, ok := a.Interface().(*gpuimage.Image); ok && im != nil {
			x = im.String()
		}
		if len(x) > 60 {
			x = x[:60] + "..."
		}
		s = append(s, x)
	}
	return strings.Join(s, ", ")
}

// exported lists every exported, non-generic function of the packages it covers.
func TestExportedComplete(t *testing.T) {
	pkgs := map[string]bool{}
	for n := range exported {
		pkgs[strings.Split(n, ".")[0]] = true
	}
	for p := range pkgs {
		dir := filepath.Join("..", "..", p)
		if _, err := os.Stat(dir); err != nil {
			t.Skipf("no sources beside the test (%v)", err)
		}
		set, err := parser.ParseDir(token.NewFileSet(), dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, pk := range set {
			for _, f := range pk.Files {
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() && fd.Type.TypeParams == nil {
						if _, ok := exported[p+"."+fd.Name.Name]; !ok {
							t.Errorf("%s.%s is missing from exported (exported_test.go)", p, fd.Name.Name)
						}
					}
				}
			}
		}
	}
}
