"""A reader for the small part of Go that tls-client's profile definitions
and utls's built-in ClientHello specs are written in: package-level `var`
declarations, functions whose body assigns and returns, composite literals
(typed, elided, keyed and positional), selectors, calls, numbers, strings.

It builds plain Python values, never runs Go: a composite literal becomes a
Lit(type, keyed fields or positional elements), a name becomes a Name, a call
a Call. The converter (convert_upstream.py) gives them meaning."""
import re
from dataclasses import dataclass, field

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<raw>`[^`]*`)
  | (?P<str>"(?:\\.|[^"\\])*")
  | (?P<char>'(?:\\.|[^'\\])')
  | (?P<num>0[xX][0-9a-fA-F_]+|\d[\d_]*)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>:=|\.\.\.|&&|\|\||==|!=|<=|>=|<<|>>|[-+*/%&|^!<>=(){}\[\],;:.])
""", re.S | re.X)


@dataclass
class Tok:
    kind: str
    text: str
    line: int


def tokenize(src):
    out, pos, line = [], 0, 1
    while pos < len(src):
        m = _TOKEN.match(src, pos)
        if not m:
            raise SyntaxError(f"line {line}: cannot read {src[pos:pos + 20]!r}")
        kind = m.lastgroup
        text = m.group()
        if kind not in ("ws", "comment"):
            out.append(Tok(kind, text, line))
        line += text.count("\n")
        pos = m.end()
    out.append(Tok("eof", "", line))
    return out


@dataclass(frozen=True)
class Name:
    parts: tuple  # ("tls", "X25519") or ("X25519",)

    @property
    def last(self):
        return self.parts[-1]

    def __str__(self):
        return ".".join(self.parts)


@dataclass
class Lit:
    type: object                     # Name, "[]T" string, "map" or None (elided)
    keyed: dict = field(default_factory=dict)
    elems: list = field(default_factory=list)
    line: int = 0


@dataclass
class Call:
    fn: object                       # Name or Sel
    args: list
    line: int = 0


@dataclass
class Sel:
    base: object
    name: str


@dataclass
class Func:
    """A function literal or declaration: its statements, kept as
    (kind, ...) tuples: ("assign", name, expr), ("return", [exprs]),
    ("unread", name, line) for an assignment whose value it could not read,
    ("other", line) for any other statement."""
    body: list


@dataclass
class Unary:
    op: str
    expr: object


class Parser:
    def __init__(self, toks):
        self.t = toks
        self.i = 0

    def peek(self, k=0):
        return self.t[self.i + k]

    def next(self):
        tok = self.t[self.i]
        self.i += 1
        return tok

    def expect(self, text):
        tok = self.next()
        if tok.text != text:
            raise SyntaxError(f"line {tok.line}: expected {text!r}, got {tok.text!r}")
        return tok

    def at(self, text):
        return self.peek().text == text

    # --- types (only as far as literals and signatures need) ---
    def parse_type(self):
        tok = self.peek()
        if tok.text == "[":
            self.next()
            self.expect("]")
            return "[]" + str(self.parse_type())
        if tok.text == "map":
            self.next()
            self.expect("[")
            k = self.parse_type()
            self.expect("]")
            v = self.parse_type()
            return f"map[{k}]{v}"
        if tok.text == "*":
            self.next()
            return "*" + str(self.parse_type())
        if tok.text == "(":
            self.next()
            parts = []
            while not self.at(")"):
                parts.append(str(self.parse_type()))
                if self.at(","):
                    self.next()
            self.next()
            return "(" + ",".join(parts) + ")"
        if tok.kind == "ident":
            parts = [self.next().text]
            while self.at(".") and self.peek(1).kind == "ident":
                self.next()
                parts.append(self.next().text)
            return Name(tuple(parts))
        raise SyntaxError(f"line {tok.line}: expected a type, got {tok.text!r}")

    # --- expressions ---
    def parse_expr(self):
        tok = self.peek()
        if tok.text in ("&", "-", "!"):
            self.next()
            return Unary(tok.text, self.parse_expr())
        return self.parse_primary()

    def parse_primary(self):
        tok = self.peek()
        if tok.text == "func":
            return self.parse_func_lit()
        if tok.text in ("[", "map"):
            typ = self.parse_type()
            return self.parse_composite(typ)
        if tok.text == "{":  # elided type inside a composite
            return self.parse_composite(None)
        if tok.text == "(":
            self.next()
            e = self.parse_expr()
            self.expect(")")
            x = e
        elif tok.kind == "num":
            self.next()
            x = int(tok.text.replace("_", ""), 0) if not tok.text.startswith("0") or tok.text.lower().startswith("0x") or tok.text == "0" else int(tok.text, 8)
        elif tok.kind == "str":
            self.next()
            x = bytes(tok.text[1:-1], "utf-8").decode("unicode_escape")
        elif tok.kind == "raw":
            self.next()
            x = tok.text[1:-1]
        elif tok.kind == "ident":
            self.next()
            x = Name((tok.text,))
        else:
            raise SyntaxError(f"line {tok.line}: unexpected {tok.text!r}")
        while True:
            if self.at("."):
                self.next()
                name = self.next().text
                if isinstance(x, Name):
                    x = Name(x.parts + (name,))
                else:
                    x = Sel(x, name)
            elif self.at("("):
                line = self.next().line
                args = []
                while not self.at(")"):
                    args.append(self.parse_expr())
                    if self.at(","):
                        self.next()
                self.next()
                x = Call(x, args, line)
            elif self.at("{") and isinstance(x, Name):
                x = self.parse_composite(x)
            else:
                return x

    def parse_composite(self, typ):
        line = self.expect("{").line
        lit = Lit(typ, line=line)
        while not self.at("}"):
            first = self.parse_expr()
            if self.at(":"):
                self.next()
                value = self.parse_expr()
                lit.keyed[first] = value  # a field Name, or a map key expression
            else:
                lit.elems.append(first)
            if self.at(","):
                self.next()
        self.next()
        return lit

    def parse_signature(self):
        self.expect("(")
        depth = 1
        while depth:
            t = self.next().text
            depth += {"(": 1, ")": -1}.get(t, 0)
        # results: a type, a parenthesised list, or nothing before "{"
        if not self.at("{"):
            self.parse_type()

    def parse_func_lit(self):
        self.expect("func")
        self.parse_signature()
        return Func(self.parse_block())

    def skip_statement(self):
        """Skips to the end of the statement's line (or of the block it
        opens); returns the line."""
        line = self.peek().line
        depth = 0
        while True:
            t = self.peek()
            if t.kind == "eof":
                break
            if t.text in "({[":
                depth += 1
            elif t.text in ")}]":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and t.line != line:
                break
            self.next()
        return line

    def parse_block(self):
        self.expect("{")
        stmts = []
        while not self.at("}"):
            if self.at("return"):
                self.next()
                vals = [self.parse_expr()]
                while self.at(","):
                    self.next()
                    vals.append(self.parse_expr())
                stmts.append(("return", vals))
            elif self.peek().kind == "ident" and self.peek(1).text == ":=":
                start = self.i
                name = self.next().text
                self.next()
                try:
                    stmts.append(("assign", name, self.parse_expr()))
                except SyntaxError:
                    # An expression this reader cannot read (operators in a
                    # helper's body): skipped, and an error only if the
                    # converter runs the function.
                    self.i = start
                    stmts.append(("unread", name, self.skip_statement()))
            else:
                # A statement this reader does not model: skip it to the end
                # of its line (the converter only needs assignments and
                # returns; anything else is reported if its value is used).
                stmts.append(("other", self.skip_statement()))
            if self.at(";"):
                self.next()
        self.next()
        return stmts


def parse_file(src):
    """Top-level declarations: {"vars": {name: expr}, "funcs": {name: Func},
    "consts": {name: expr}}."""
    p = Parser(tokenize(src))
    out = {"vars": {}, "funcs": {}, "consts": {}}
    while p.peek().kind != "eof":
        tok = p.next()
        if tok.text == "import":
            if p.at("("):
                while not p.at(")"):
                    p.next()
                p.next()
            else:
                p.next()
                if p.peek().kind == "str":
                    p.next()
        elif tok.text in ("var", "const"):
            table = out["vars"] if tok.text == "var" else out["consts"]
            if p.at("("):
                p.next()
                while not p.at(")"):
                    _spec(p, table)
                    if p.at(";"):
                        p.next()
                p.next()
            else:
                _spec(p, table)
        elif tok.text == "func":
            if p.at("("):  # method: skip the receiver
                depth = 0
                while True:
                    t = p.next().text
                    depth += {"(": 1, ")": -1}.get(t, 0)
                    if depth == 0:
                        break
            name = p.next().text
            p.parse_signature()
            out["funcs"][name] = Func(p.parse_block())
        elif tok.text == "type":
            # skip to the end of the type's body
            depth = 0
            while True:
                t = p.next()
                if t.text in "({":
                    depth += 1
                elif t.text in ")}":
                    depth -= 1
                    if depth == 0:
                        break
                elif depth == 0 and p.peek().line != t.line:
                    break
    return out


def _spec(p, table):
    names = [p.next().text]
    while p.at(","):
        p.next()
        names.append(p.next().text)
    if not p.at("="):
        if p.peek().text not in ("=",) and p.peek().line == p.t[p.i - 1].line:
            p.parse_type()
    if p.at("="):
        p.next()
        vals = [p.parse_expr()]
        while p.at(","):
            p.next()
            vals.append(p.parse_expr())
        for n, v in zip(names, vals):
            table[n] = v
    else:
        for n in names:
            table[n] = None
