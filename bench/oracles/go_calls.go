// Command go_calls resolves every named call of a Go repository with go/types and prints one
// JSON record per call site, then one per named definition: the Go oracle of
// bench/graph_accuracy.py, in the record shape of ts_calls.mjs and jedi_calls.py.
//
//	go run bench/oracles/go_calls.go ROOT > oracle.jsonl
//
// Standard library only (go/build, go/parser, go/types, go/importer), so it runs with a plain
// Go toolchain and no module downloads. Run it with GOTOOLCHAIN=local GOFLAGS=-mod=mod
// GOPROXY=off CGO_ENABLED=0 so that nothing is fetched.
//
// Packages. Every go.mod under ROOT is a module; a directory is the package of the nearest
// enclosing module, its import path the module path plus the relative directory. `replace`
// directives that point at a directory under ROOT are followed. Files are chosen by the build
// context (GOOS/GOARCH of the machine, CGO off), as `go build` would. Each package is
// type-checked twice: its plain files, for packages that import it, and its files with its
// `_test.go` files in the same package, whose calls are reported; an external test package
// (`package p_test`) is checked against that test variant, as `go test` does. Imports outside
// the repository come from the standard library (export data); anything else is missing, its
// calls unresolved and not judged.
//
// Call sites. A call `f(...)`, `pkg.F(...)`, `x.M(...)`, `T.M(x)` and an explicit
// instantiation `F[int](...)`, inside `go` and `defer` too; the site is the callee name's
// identifier, 1-based line and character column. Conversions (`T(x)`) are not calls and are
// skipped, as are calls of anything without a name (`func(){}()`, `fs[i]()`, `f()()`).
// shape: "name" (`f()`), "package" (`pkg.F()`), "receiver" (a method's own receiver,
// `s.m()`), "member" (any other selector). Targets: the function or method go/types binds
// (the generic origin of an instantiation; a promoted method's declaration in the embedded
// type; an interface's method for a call through an interface); a func-typed struct field or
// package variable; a parameter or local variable (`local`: never a graph node); builtins,
// the standard library and other modules are `external`.
//
// Named definitions and ids (astrag's): a file is `path`; a function `path::F`; a method, on
// a value or pointer receiver, generic or not, `path::T.M` in the file that declares the
// method; a type `path::T`, its fields `path::T.f` (an embedded field by its type's name) and
// an interface's methods `path::I.M`; package-level variables and constants `path::v`. A
// second `init` of a file is `init#2`. Closures belong to the function around them; a call at
// package level (a variable's initializer, even inside a function literal) belongs to the file.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

type module struct {
	dir, path string
}

type target struct {
	Path  string `json:"path"`
	Line  int    `json:"line"`
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	ID    string `json:"id,omitempty"`
	Local bool   `json:"local,omitempty"`
}

type site struct {
	Path     string   `json:"path"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Name     string   `json:"name"`
	Shape    string   `json:"shape"`
	Source   string   `json:"source"`
	Targets  []target `json:"targets"`
	External bool     `json:"external,omitempty"`
}

type definition struct {
	Kind    string `json:"kind"` // always "definition"
	ID      string `json:"id"`
	Path    string `json:"path"`
	Name    string `json:"name"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line"`
	Source  bool   `json:"source"`
	What    string `json:"what"`
}

type defInfo struct {
	id, kind, name string
}

type oracle struct {
	root     string
	fset     *token.FileSet
	ctx      build.Context
	modules  []module          // longest path first
	replaced map[string]string // module path -> directory, from replace directives
	std      types.Importer
	plain    map[string]*types.Package // import path -> plain variant (nil: tried, failed)
	defs     map[string]defInfo        // "file:line:col" of a name -> definition
	sites    []site
	defList  []definition
	lines    map[string][]string
	checking map[string]bool
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run go_calls.go ROOT > oracle.jsonl")
		os.Exit(2)
	}
	root, err := filepath.Abs(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	o := newOracle(root)
	dirs := o.packageDirs()
	for _, dir := range dirs {
		o.collectDefinitions(dir)
	}
	for _, dir := range dirs {
		o.checkForOutput(dir)
	}
	o.write(os.Stdout)
}

func newOracle(root string) *oracle {
	ctx := build.Default
	ctx.CgoEnabled = false
	fset := token.NewFileSet()
	o := &oracle{
		root: root, fset: fset, ctx: ctx, replaced: map[string]string{},
		std:   importer.ForCompiler(fset, "gc", nil),
		plain: map[string]*types.Package{}, defs: map[string]defInfo{},
		lines: map[string][]string{}, checking: map[string]bool{},
	}
	o.findModules()
	return o
}

// findModules reads every go.mod under the root: its module path and local replacements.
func (o *oracle) findModules() {
	_ = filepath.WalkDir(o.root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p != o.root && (d.Name() == "vendor" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != "go.mod" {
			return nil
		}
		o.readGoMod(p)
		return nil
	})
	sort.Slice(o.modules, func(i, j int) bool { return len(o.modules[i].path) > len(o.modules[j].path) })
}

func (o *oracle) readGoMod(file string) {
	f, err := os.Open(file)
	if err != nil {
		return
	}
	defer f.Close()
	dir := filepath.Dir(file)
	inReplace := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(strings.SplitN(sc.Text(), "//", 2)[0])
		switch {
		case strings.HasPrefix(line, "module "):
			path := strings.Trim(strings.TrimSpace(strings.TrimPrefix(line, "module ")), `"`)
			o.modules = append(o.modules, module{dir, path})
		case line == "replace (":
			inReplace = true
		case inReplace && line == ")":
			inReplace = false
		case strings.HasPrefix(line, "replace ") || inReplace:
			o.readReplace(dir, strings.TrimPrefix(line, "replace "))
		}
	}
}

// readReplace records `old [v] => ./dir`; replacements by another module version are ignored.
func (o *oracle) readReplace(dir, spec string) {
	parts := strings.SplitN(spec, "=>", 2)
	if len(parts) != 2 {
		return
	}
	old := strings.Fields(parts[0])
	repl := strings.Fields(parts[1])
	if len(old) == 0 || len(repl) == 0 || !(strings.HasPrefix(repl[0], "./") || strings.HasPrefix(repl[0], "../")) {
		return
	}
	target := filepath.Clean(filepath.Join(dir, repl[0]))
	if _, known := o.replaced[old[0]]; !known {
		o.replaced[old[0]] = target
	}
}

// dirOf maps an import path to a directory under the root, or "" when it is not the repo's.
func (o *oracle) dirOf(path string) string {
	for mod, dir := range o.replaced {
		if path == mod || strings.HasPrefix(path, mod+"/") {
			if d := filepath.Join(dir, strings.TrimPrefix(path, mod)); isDir(d) {
				return d
			}
		}
	}
	for _, m := range o.modules {
		if path == m.path || strings.HasPrefix(path, m.path+"/") {
			d := filepath.Join(m.dir, strings.TrimPrefix(path, m.path))
			if isDir(d) && o.moduleOf(d) == m {
				return d
			}
		}
	}
	return ""
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func (o *oracle) moduleOf(dir string) module {
	best := module{}
	for _, m := range o.modules {
		if (dir == m.dir || strings.HasPrefix(dir, m.dir+string(filepath.Separator))) && len(m.dir) > len(best.dir) {
			best = m
		}
	}
	return best
}

func (o *oracle) importPath(dir string) string {
	m := o.moduleOf(dir)
	if m.path == "" {
		return ""
	}
	rel, _ := filepath.Rel(m.dir, dir)
	if rel == "." {
		return m.path
	}
	return m.path + "/" + filepath.ToSlash(rel)
}

// packageDirs lists every directory with Go files, in order.
func (o *oracle) packageDirs() []string {
	var dirs []string
	seen := map[string]bool{}
	_ = filepath.WalkDir(o.root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p != o.root && (d.Name() == "vendor" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !seen[filepath.Dir(p)] {
			seen[filepath.Dir(p)] = true
			dirs = append(dirs, filepath.Dir(p))
		}
		return nil
	})
	sort.Strings(dirs)
	return dirs
}

func (o *oracle) rel(file string) string {
	r, err := filepath.Rel(o.root, file)
	if err != nil {
		return file
	}
	return filepath.ToSlash(r)
}

func (o *oracle) posKey(p token.Pos) string {
	pos := o.fset.Position(p)
	return fmt.Sprintf("%s:%d:%d", pos.Filename, pos.Line, pos.Column)
}

// charColumn turns go/token's byte column into a 1-based character column.
func (o *oracle) charColumn(pos token.Position) int {
	lines, ok := o.lines[pos.Filename]
	if !ok {
		data, _ := os.ReadFile(pos.Filename)
		lines = strings.Split(string(data), "\n")
		o.lines[pos.Filename] = lines
	}
	if pos.Line-1 >= len(lines) {
		return pos.Column
	}
	line := lines[pos.Line-1]
	if pos.Column-1 > len(line) {
		return pos.Column
	}
	return utf8.RuneCountInString(line[:pos.Column-1]) + 1
}

func (o *oracle) parse(dir string, names []string) []*ast.File {
	var files []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(o.fset, filepath.Join(dir, n), nil, parser.ParseComments|parser.SkipObjectResolution)
		if f != nil {
			files = append(files, f)
		}
		_ = err
	}
	return files
}

func (o *oracle) buildPackage(dir string) (*build.Package, error) {
	bp, err := o.ctx.ImportDir(dir, 0)
	var noGo *build.NoGoError
	if err != nil && !errors.As(err, &noGo) && bp == nil {
		return nil, err
	}
	return bp, nil
}

// Import implements types.Importer over the repository's packages and the standard library.
type repoImporter struct {
	o    *oracle
	self map[string]*types.Package // the package under test, for its external tests
}

func (ri repoImporter) Import(path string) (*types.Package, error) {
	if p, ok := ri.self[path]; ok {
		return p, nil
	}
	return ri.o.importPlain(path)
}

func (o *oracle) importPlain(path string) (*types.Package, error) {
	if p, ok := o.plain[path]; ok {
		if p == nil {
			return nil, fmt.Errorf("cannot import %s", path)
		}
		return p, nil
	}
	dir := o.dirOf(path)
	if dir == "" {
		p, err := o.std.Import(path)
		if err != nil {
			o.plain[path] = nil
			return nil, err
		}
		o.plain[path] = p
		return p, nil
	}
	if o.checking[path] {
		return nil, fmt.Errorf("import cycle through %s", path)
	}
	o.checking[path] = true
	defer delete(o.checking, path)
	bp, err := o.buildPackage(dir)
	if err != nil || bp == nil || len(bp.GoFiles) == 0 {
		o.plain[path] = nil
		return nil, fmt.Errorf("no Go files for %s", path)
	}
	pkg, _ := o.check(path, o.parse(dir, bp.GoFiles), nil, nil)
	o.plain[path] = pkg
	return pkg, nil
}

func (o *oracle) check(path string, files []*ast.File, self map[string]*types.Package, info *types.Info) (*types.Package, *types.Info) {
	conf := types.Config{
		Importer: repoImporter{o, self},
		Error:    func(error) {}, // keep going: an unresolvable call is simply not judged
	}
	pkg, _ := conf.Check(path, o.fset, files, info)
	return pkg, info
}

func newInfo() *types.Info {
	return &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Uses:       map[*ast.Ident]types.Object{},
		Defs:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
}

// checkForOutput checks a directory's package with its tests and records its call sites.
func (o *oracle) checkForOutput(dir string) {
	bp, err := o.buildPackage(dir)
	if err != nil || bp == nil {
		return
	}
	path := o.importPath(dir)
	if path == "" {
		path = "main/" + o.rel(dir)
	}
	names := append(append([]string{}, bp.GoFiles...), bp.TestGoFiles...)
	var testPkg *types.Package
	if len(names) > 0 {
		files := o.parse(dir, names)
		info := newInfo()
		testPkg, _ = o.check(path, files, nil, info)
		o.record(files, info)
	}
	if len(bp.XTestGoFiles) > 0 {
		files := o.parse(dir, bp.XTestGoFiles)
		info := newInfo()
		self := map[string]*types.Package{}
		if testPkg != nil {
			self[path] = testPkg
		}
		o.check(path+"_test", files, self, info)
		o.record(files, info)
	}
}

// collectDefinitions gives every named definition of a directory's files its astrag id.
func (o *oracle) collectDefinitions(dir string) {
	bp, err := o.buildPackage(dir)
	if err != nil || bp == nil {
		return
	}
	names := append(append(append([]string{}, bp.GoFiles...), bp.TestGoFiles...), bp.XTestGoFiles...)
	for _, f := range o.parse(dir, names) {
		o.fileDefinitions(f)
	}
}

func (o *oracle) fileDefinitions(f *ast.File) {
	file := o.fset.Position(f.Package).Filename
	path := o.rel(file)
	end := o.fset.Position(f.End()).Line
	o.defList = append(o.defList, definition{"definition", path, path, filepath.Base(path), 1, end, true, "module"})
	seen := map[string]int{}
	add := func(ident *ast.Ident, qual, what string, node ast.Node, source bool) {
		if ident == nil || ident.Name == "_" {
			return
		}
		seen[qual]++
		if seen[qual] > 1 {
			qual = fmt.Sprintf("%s#%d", qual, seen[qual])
		}
		id := path + "::" + qual
		o.defs[o.posKey(ident.Pos())] = defInfo{id, what, ident.Name}
		start := o.fset.Position(node.Pos()).Line
		o.defList = append(o.defList, definition{"definition", id, path, ident.Name, start, o.fset.Position(node.End()).Line, source, what})
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) > 0 {
				if recv := receiverType(d.Recv.List[0].Type); recv != "" {
					add(d.Name, recv+"."+d.Name.Name, "method", d, true)
				}
				continue
			}
			add(d.Name, d.Name.Name, "function", d, true)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					add(s.Name, s.Name.Name, "type", s, false)
					o.memberDefinitions(s, add)
				case *ast.ValueSpec:
					what := "variable"
					if d.Tok == token.CONST {
						what = "constant"
					}
					for _, n := range s.Names {
						add(n, n.Name, what, s, false)
					}
				}
			}
		}
	}
}

func (o *oracle) memberDefinitions(s *ast.TypeSpec, add func(*ast.Ident, string, string, ast.Node, bool)) {
	switch t := s.Type.(type) {
	case *ast.StructType:
		for _, field := range t.Fields.List {
			if len(field.Names) == 0 {
				if name := embeddedName(field.Type); name != nil {
					add(name, s.Name.Name+"."+name.Name, "field", field, false)
				}
			}
			for _, n := range field.Names {
				add(n, s.Name.Name+"."+n.Name, "field", field, false)
			}
		}
	case *ast.InterfaceType:
		for _, m := range t.Methods.List {
			if _, ok := m.Type.(*ast.FuncType); ok {
				for _, n := range m.Names {
					add(n, s.Name.Name+"."+n.Name, "interface_method", m, false)
				}
			}
		}
	}
}

// receiverType is the type name of a receiver: T, *T, T[K], *T[K, V].
func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// embeddedName is the field name of an embedded field: T, *T, pkg.T, T[K].
func embeddedName(e ast.Expr) *ast.Ident {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.SelectorExpr:
			return t.Sel
		case *ast.Ident:
			return t
		default:
			return nil
		}
	}
}

// record walks each file and turns its named calls into sites.
func (o *oracle) record(files []*ast.File, info *types.Info) {
	for _, f := range files {
		path := o.rel(o.fset.Position(f.Package).Filename)
		for _, decl := range f.Decls {
			source, recv := path, types.Object(nil)
			if fd, ok := decl.(*ast.FuncDecl); ok {
				if def, ok := o.defs[o.posKey(fd.Name.Pos())]; ok {
					source = def.id
				}
				if fd.Recv != nil && len(fd.Recv.List) > 0 && len(fd.Recv.List[0].Names) > 0 {
					recv = info.Defs[fd.Recv.List[0].Names[0]]
				}
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					o.recordCall(path, source, recv, call, info)
				}
				return true
			})
		}
	}
}

func (o *oracle) recordCall(path, source string, recv types.Object, call *ast.CallExpr, info *types.Info) {
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return // a conversion
	}
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	var ident *ast.Ident
	shape := "name"
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		ident = f
	case *ast.SelectorExpr:
		ident = f.Sel
		shape = "member"
		if x, ok := ast.Unparen(f.X).(*ast.Ident); ok {
			switch obj := info.Uses[x]; {
			case obj == nil:
			case recv != nil && obj == recv:
				shape = "receiver"
			default:
				if _, isPkg := obj.(*types.PkgName); isPkg {
					shape = "package"
				}
			}
		}
	default:
		return
	}
	pos := o.fset.Position(ident.Pos())
	s := site{Path: path, Line: pos.Line, Column: o.charColumn(pos), Name: ident.Name, Shape: shape, Source: source, Targets: []target{}}
	o.resolve(&s, info.Uses[ident])
	o.sites = append(o.sites, s)
}

// resolve fills a site's targets from the object go/types bound to its callee name.
func (o *oracle) resolve(s *site, obj types.Object) {
	switch obj := obj.(type) {
	case nil:
		return // unresolved: not judged
	case *types.Builtin:
		s.External = true
	case *types.Func:
		o.targetOf(s, obj.Origin())
	case *types.Var:
		if v := obj.Origin(); !v.IsField() && v.Parent() != nil && v.Pkg() != nil && v.Parent() != v.Pkg().Scope() {
			pos := o.fset.Position(v.Pos())
			s.Targets = append(s.Targets, target{Path: o.rel(pos.Filename), Line: pos.Line, Kind: "local", Name: v.Name(), Local: true})
			return
		}
		o.targetOf(s, obj.Origin())
	default:
		s.External = true
	}
}

func (o *oracle) targetOf(s *site, obj types.Object) {
	if !obj.Pos().IsValid() {
		s.External = true // error.Error and other universe methods
		return
	}
	def, ok := o.defs[o.posKey(obj.Pos())]
	if !ok {
		pos := o.fset.Position(obj.Pos())
		if strings.HasPrefix(pos.Filename, o.root+string(filepath.Separator)) {
			return // a repository object astrag cannot name (a local type's method): not judged
		}
		s.External = true
		return
	}
	pos := o.fset.Position(obj.Pos())
	s.Targets = append(s.Targets, target{Path: o.rel(pos.Filename), Line: pos.Line, Kind: def.kind, Name: def.name, ID: def.id})
}

func (o *oracle) write(w *os.File) {
	out := bufio.NewWriter(w)
	defer out.Flush()
	enc := json.NewEncoder(out)
	sort.SliceStable(o.sites, func(i, j int) bool {
		a, b := o.sites[i], o.sites[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	seen := map[string]bool{}
	for _, s := range o.sites {
		key := fmt.Sprintf("%s:%d:%d", s.Path, s.Line, s.Column)
		if !seen[key] { // a file checked twice (plain and test variant) is reported once
			seen[key] = true
			_ = enc.Encode(s)
		}
	}
	defSeen := map[string]bool{}
	for _, d := range o.defList {
		if !defSeen[d.ID] {
			defSeen[d.ID] = true
			_ = enc.Encode(d)
		}
	}
}
