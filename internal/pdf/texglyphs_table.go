package pdf

// texGlyphs maps the glyph names of TeX's math fonts that are not in the
// Adobe Glyph List (pdfium maps those itself) to the Unicode character
// each glyph is. The names are those of the built-in encodings of cmsy,
// cmmi, cmex, msam and msbm as their Type 1 programs in TeX Live name
// them; the character is the one unicode-math assigns to the command
// amssymb.sty or plain TeX sets with the glyph. The size variants of a
// delimiter or operator (parenleftbig, summationdisplay, integraltext)
// map to the base character.
//
// Left out, so they stay as pdfium reports them: glyphs with no character
// of their own — negationslash (the slash of \not, drawn before the symbol
// it crosses), mapsto and arrowhookleft/right (pieces of ↦ and ↪), the
// accents (vector, tie, hatwide, tildewide), the pieces of extensible
// arrows, radicals and horizontal braces, axisshort and arrowaxisleft/right
// —; relations Unicode has only with U+0338 (nleqslant, nleqq,
// nsubseteqq and their mirrors); and followsorequal/precedesorequal,
// which name ≿ ≾ in msam but ⪸ ⪷ in msbm. Two names mean different
// glyphs in two fonts and are mapped by the more common one: star (cmmi ⋆,
// msam's \bigstar ★) and triangleright/left (cmmi ▷ ◁, msam's
// \vartriangleright ⊳ ⊲).
//
// Written for crossmem from the fonts' encodings and amssymb.sty; checked
// against MuPDF (see bench/README.md, "TeX glyph names").
var texGlyphs = map[string]rune{

	// cmsy
	"diamondmath":     0x22C4, // ⋄
	"circleminus":     0x2296, // ⊖
	"circledivide":    0x2298, // ⊘
	"circledot":       0x2299, // ⊙
	"circlecopyrt":    0x25EF, // ◯
	"equivasymptotic": 0x224D, // ≍
	"precedesequal":   0x2AAF, // ⪯
	"followsequal":    0x2AB0, // ⪰
	"lessmuch":        0x226A, // ≪
	"greatermuch":     0x226B, // ≫
	"follows":         0x227B, // ≻
	"arrownortheast":  0x2197, // ↗
	"arrowsoutheast":  0x2198, // ↘
	"similarequal":    0x2243, // ≃
	"arrownorthwest":  0x2196, // ↖
	"arrowsouthwest":  0x2199, // ↙
	"prime":           0x2032, // ′
	"owner":           0x220B, // ∋
	"triangle":        0x25B3, // △
	"triangleinv":     0x25BD, // ▽
	"Rfractur":        0x211C, // ℜ
	"Ifractur":        0x2111, // ℑ
	"latticetop":      0x22A4, // ⊤
	"unionmulti":      0x228E, // ⊎
	"turnstileleft":   0x22A2, // ⊢
	"turnstileright":  0x22A3, // ⊣
	"floorleft":       0x230A, // ⌊
	"floorright":      0x230B, // ⌋
	"ceilingleft":     0x2308, // ⌈
	"ceilingright":    0x2309, // ⌉
	"angbracketleft":  0x27E8, // ⟨
	"angbracketright": 0x27E9, // ⟩
	"bardbl":          0x2016, // ‖
	"arrowbothv":      0x2195, // ↕
	"arrowdblbothv":   0x21D5, // ⇕
	"wreathproduct":   0x2240, // ≀
	"coproduct":       0x2A3F, // ⨿
	"unionsq":         0x2294, // ⊔
	"intersectionsq":  0x2293, // ⊓
	"subsetsqequal":   0x2291, // ⊑
	"supersetsqequal": 0x2292, // ⊒

	// cmmi
	"epsilon1":          0x03F5, // ϵ
	"pi1":               0x03D6, // ϖ
	"rho1":              0x03F1, // ϱ
	"arrowlefttophalf":  0x21BC, // ↼
	"arrowleftbothalf":  0x21BD, // ↽
	"arrowrighttophalf": 0x21C0, // ⇀
	"arrowrightbothalf": 0x21C1, // ⇁
	"triangleright":     0x25B7, // ▷
	"triangleleft":      0x25C1, // ◁
	"star":              0x22C6, // ⋆
	"flat":              0x266D, // ♭
	"natural":           0x266E, // ♮
	"sharp":             0x266F, // ♯
	"slurbelow":         0x2323, // ⌣
	"slurabove":         0x2322, // ⌢
	"lscript":           0x2113, // ℓ

	// cmex
	"vextendsingle": 0x007C, // |
	"vextenddouble": 0x2016, // ‖
	// Delimiters in four sizes: the base character.
	"parenleftbig":          0x0028, // (
	"parenleftBig":          0x0028, // (
	"parenleftbigg":         0x0028, // (
	"parenleftBigg":         0x0028, // (
	"parenrightbig":         0x0029, // )
	"parenrightBig":         0x0029, // )
	"parenrightbigg":        0x0029, // )
	"parenrightBigg":        0x0029, // )
	"bracketleftbig":        0x005B, // [
	"bracketleftBig":        0x005B, // [
	"bracketleftbigg":       0x005B, // [
	"bracketleftBigg":       0x005B, // [
	"bracketrightbig":       0x005D, // ]
	"bracketrightBig":       0x005D, // ]
	"bracketrightbigg":      0x005D, // ]
	"bracketrightBigg":      0x005D, // ]
	"floorleftbig":          0x230A, // ⌊
	"floorleftBig":          0x230A, // ⌊
	"floorleftbigg":         0x230A, // ⌊
	"floorleftBigg":         0x230A, // ⌊
	"floorrightbig":         0x230B, // ⌋
	"floorrightBig":         0x230B, // ⌋
	"floorrightbigg":        0x230B, // ⌋
	"floorrightBigg":        0x230B, // ⌋
	"ceilingleftbig":        0x2308, // ⌈
	"ceilingleftBig":        0x2308, // ⌈
	"ceilingleftbigg":       0x2308, // ⌈
	"ceilingleftBigg":       0x2308, // ⌈
	"ceilingrightbig":       0x2309, // ⌉
	"ceilingrightBig":       0x2309, // ⌉
	"ceilingrightbigg":      0x2309, // ⌉
	"ceilingrightBigg":      0x2309, // ⌉
	"braceleftbig":          0x007B, // {
	"braceleftBig":          0x007B, // {
	"braceleftbigg":         0x007B, // {
	"braceleftBigg":         0x007B, // {
	"bracerightbig":         0x007D, // }
	"bracerightBig":         0x007D, // }
	"bracerightbigg":        0x007D, // }
	"bracerightBigg":        0x007D, // }
	"angbracketleftbig":     0x27E8, // ⟨
	"angbracketleftBig":     0x27E8, // ⟨
	"angbracketleftbigg":    0x27E8, // ⟨
	"angbracketleftBigg":    0x27E8, // ⟨
	"angbracketrightbig":    0x27E9, // ⟩
	"angbracketrightBig":    0x27E9, // ⟩
	"angbracketrightbigg":   0x27E9, // ⟩
	"angbracketrightBigg":   0x27E9, // ⟩
	"slashbig":              0x002F, // /
	"slashBig":              0x002F, // /
	"slashbigg":             0x002F, // /
	"slashBigg":             0x002F, // /
	"backslashbig":          0x005C, // \
	"backslashBig":          0x005C, // \
	"backslashbigg":         0x005C, // \
	"backslashBigg":         0x005C, // \
	"radicalbig":            0x221A, // √
	"radicalBig":            0x221A, // √
	"radicalbigg":           0x221A, // √
	"radicalBigg":           0x221A, // √
	"radicalbt":             0x23B7, // ⎷
	"unionsqtext":           0x2A06, // ⨆
	"unionsqdisplay":        0x2A06, // ⨆
	"contintegraltext":      0x222E, // ∮
	"contintegraldisplay":   0x222E, // ∮
	"circledottext":         0x2A00, // ⨀
	"circledotdisplay":      0x2A00, // ⨀
	"circleplustext":        0x2A01, // ⨁
	"circleplusdisplay":     0x2A01, // ⨁
	"circlemultiplytext":    0x2A02, // ⨂
	"circlemultiplydisplay": 0x2A02, // ⨂
	"summationtext":         0x2211, // ∑
	"summationdisplay":      0x2211, // ∑
	"producttext":           0x220F, // ∏
	"productdisplay":        0x220F, // ∏
	"integraltext":          0x222B, // ∫
	"integraldisplay":       0x222B, // ∫
	"uniontext":             0x22C3, // ⋃
	"uniondisplay":          0x22C3, // ⋃
	"intersectiontext":      0x22C2, // ⋂
	"intersectiondisplay":   0x22C2, // ⋂
	"unionmultitext":        0x2A04, // ⨄
	"unionmultidisplay":     0x2A04, // ⨄
	"logicalandtext":        0x22C0, // ⋀
	"logicalanddisplay":     0x22C0, // ⋀
	"logicalortext":         0x22C1, // ⋁
	"logicalordisplay":      0x22C1, // ⋁
	"coproducttext":         0x2210, // ∐
	"coproductdisplay":      0x2210, // ∐

	// msam
	"squaredot":           0x22A1, // ⊡
	"squareplus":          0x229E, // ⊞
	"squaremultiply":      0x22A0, // ⊠
	"square":              0x25A1, // □
	"squaresolid":         0x25A0, // ■
	"squaresmallsolid":    0x25AA, // ▪
	"diamondsolid":        0x29EB, // ⧫
	"clockwise":           0x21BB, // ↻
	"anticlockwise":       0x21BA, // ↺
	"harpoonleftright":    0x21CC, // ⇌
	"harpoonrightleft":    0x21CB, // ⇋
	"squareminus":         0x229F, // ⊟
	"forces":              0x22A9, // ⊩
	"forcesbar":           0x22AA, // ⊪
	"satisfies":           0x22A8, // ⊨
	"dblarrowheadright":   0x21A0, // ↠
	"dblarrowheadleft":    0x219E, // ↞
	"dblarrowup":          0x21C8, // ⇈
	"dblarrowdwn":         0x21CA, // ⇊
	"harpoonupright":      0x21BE, // ↾
	"harpoondownright":    0x21C2, // ⇂
	"harpoonupleft":       0x21BF, // ↿
	"harpoondownleft":     0x21C3, // ⇃
	"arrowtailright":      0x21A3, // ↣
	"arrowtailleft":       0x21A2, // ↢
	"arrowparrleftright":  0x21C6, // ⇆
	"arrowparrrightleft":  0x21C4, // ⇄
	"shiftleft":           0x21B0, // ↰
	"shiftright":          0x21B1, // ↱
	"squiggleright":       0x21DD, // ⇝
	"squiggleleftright":   0x21AD, // ↭
	"curlyleft":           0x21AB, // ↫
	"curlyright":          0x21AC, // ↬
	"circleequal":         0x2257, // ≗
	"greaterorsimilar":    0x2273, // ≳
	"greaterorapproxeql":  0x2A86, // ⪆
	"multimap":            0x22B8, // ⊸
	"equalsdots":          0x2251, // ≑
	"defines":             0x225C, // ≜
	"lessorsimilar":       0x2272, // ≲
	"lessorapproxeql":     0x2A85, // ⪅
	"equalorless":         0x2A95, // ⪕
	"equalorgreater":      0x2A96, // ⪖
	"equalorprecedes":     0x22DE, // ⋞
	"equalorfollows":      0x22DF, // ⋟
	"precedesorcurly":     0x227C, // ≼
	"lessdblequal":        0x2266, // ≦
	"lessorequalslant":    0x2A7D, // ⩽
	"primereverse":        0x2035, // ‵
	"equaldotrightleft":   0x2253, // ≓
	"equaldotleftright":   0x2252, // ≒
	"followsorcurly":      0x227D, // ≽
	"greaterdblequal":     0x2267, // ≧
	"greaterorequalslant": 0x2A7E, // ⩾
	"squareimage":         0x228F, // ⊏
	"squareoriginal":      0x2290, // ⊐
	"trianglerightequal":  0x22B5, // ⊵
	"triangleleftequal":   0x22B4, // ⊴
	"between":             0x226C, // ≬
	"triangledownsld":     0x25BC, // ▼
	"trianglerightsld":    0x25B6, // ▶
	"triangleleftsld":     0x25C0, // ◀
	"trianglesolid":       0x25B2, // ▲
	"ringinequal":         0x2256, // ≖
	"lessequalgreater":    0x22DA, // ⋚
	"greaterlessequal":    0x22DB, // ⋛
	"lessdbleqlgreater":   0x2A8B, // ⪋
	"greaterdbleqlless":   0x2A8C, // ⪌
	"Yen":                 0x00A5, // ¥
	"arrowtripleright":    0x21DB, // ⇛
	"arrowtripleleft":     0x21DA, // ⇚
	"check":               0x2713, // ✓
	"orunderscore":        0x22BB, // ⊻
	"nand":                0x22BC, // ⊼
	"perpcorrespond":      0x2A5E, // ⩞
	"measuredangle":       0x2221, // ∡
	"sphericalangle":      0x2222, // ∢
	"smile":               0x2323, // ⌣
	"frown":               0x2322, // ⌢
	"subsetdbl":           0x22D0, // ⋐
	"supersetdbl":         0x22D1, // ⋑
	"uniondbl":            0x22D3, // ⋓
	"intersectiondbl":     0x22D2, // ⋒
	"uprise":              0x22CF, // ⋏
	"downfall":            0x22CE, // ⋎
	"multiopenleft":       0x22CB, // ⋋
	"multiopenright":      0x22CC, // ⋌
	"subsetdblequal":      0x2AC5, // ⫅
	"supersetdblequal":    0x2AC6, // ⫆
	"difference":          0x224F, // ≏
	"geomequivalent":      0x224E, // ≎
	"rightanglenw":        0x231C, // ⌜
	"rightanglene":        0x231D, // ⌝
	"circleR":             0x00AE, // ®
	"circleS":             0x24C8, // Ⓢ
	"fork":                0x22D4, // ⋔
	"dotplus":             0x2214, // ∔
	"revsimilar":          0x223D, // ∽
	"revasymptequal":      0x22CD, // ⋍
	"rightanglesw":        0x231E, // ⌞
	"rightanglese":        0x231F, // ⌟
	"maltesecross":        0x2720, // ✠
	"complement":          0x2201, // ∁
	"intercal":            0x22BA, // ⊺
	"circlering":          0x229A, // ⊚
	"circleasterisk":      0x229B, // ⊛

	// msbm
	"notlessequal":        0x2270, // ≰
	"notgreaterequal":     0x2271, // ≱
	"notfollows":          0x2281, // ⊁
	"lessornotdbleql":     0x2268, // ≨
	"greaterornotdbleql":  0x2269, // ≩
	"lessnotequal":        0x2A87, // ⪇
	"greaternotequal":     0x2A88, // ⪈
	"notprecedesoreql":    0x22E0, // ⋠
	"notfollowsoreql":     0x22E1, // ⋡
	"precedeornoteqvlnt":  0x22E8, // ⋨
	"followornoteqvlnt":   0x22E9, // ⋩
	"lessornotsimilar":    0x22E6, // ⋦
	"greaterornotsimilar": 0x22E7, // ⋧
	"precedenotslnteql":   0x2AB5, // ⪵
	"follownotslnteql":    0x2AB6, // ⪶
	"precedenotdbleqv":    0x2AB9, // ⪹
	"follownotdbleqv":     0x2ABA, // ⪺
	"lessnotdblequal":     0x2A89, // ⪉
	"greaternotdblequal":  0x2A8A, // ⪊
	"notsimilar":          0x2241, // ≁
	"notapproxequal":      0x2247, // ≇
	"notsubsetoreql":      0x228A, // ⊊
	"notsupersetoreql":    0x228B, // ⊋
	"subsetornotdbleql":   0x2ACB, // ⫋
	"supersetornotdbleql": 0x2ACC, // ⫌
	"subsetornoteql":      0x2ACB, // ⫋
	"supersetornoteql":    0x2ACC, // ⫌
	"notbar":              0x2224, // ∤
	"notshortbar":         0x2224, // ∤
	"notshortparallel":    0x2226, // ∦
	"notturnstile":        0x22AC, // ⊬
	"notforces":           0x22AE, // ⊮
	"notsatisfies":        0x22AD, // ⊭
	"notforcesextra":      0x22AF, // ⊯
	"nottriangeqlright":   0x22ED, // ⋭
	"nottriangeqlleft":    0x22EC, // ⋬
	"nottriangleleft":     0x22EA, // ⋪
	"nottriangleright":    0x22EB, // ⋫
	"notarrowleft":        0x219A, // ↚
	"notarrowright":       0x219B, // ↛
	"notdblarrowleft":     0x21CD, // ⇍
	"notdblarrowright":    0x21CF, // ⇏
	"notdblarrowboth":     0x21CE, // ⇎
	"notarrowboth":        0x21AE, // ↮
	"dividemultiply":      0x22C7, // ⋇
	"notexistential":      0x2204, // ∄
	"Finv":                0x2132, // Ⅎ
	"Gmir":                0x2141, // ⅁
	"Omegainv":            0x2127, // ℧
	"equalorsimilar":      0x2242, // ≂
	"beth":                0x2136, // ℶ
	"daleth":              0x2138, // ℸ
	"lessdot":             0x22D6, // ⋖
	"greaterdot":          0x22D7, // ⋗
	"multicloseleft":      0x22C9, // ⋉
	"multicloseright":     0x22CA, // ⋊
	"barshort":            0x2223, // ∣
	"parallelshort":       0x2225, // ∥
	"integerdivide":       0x2216, // ∖
	"approxorequal":       0x224A, // ≊
	"archleftdown":        0x21B6, // ↶
	"archrightdown":       0x21B7, // ↷
	"Digamma":             0x03DD, // ϝ
	"planckover2pi":       0x210F, // ℏ
	"planckover2pi1":      0x210F, // ℏ
	"epsiloninv":          0x03F6, // ϶
	"lessornotequal":      0x2268, // ≨
	"greaterornotequal":   0x2269, // ≩
	"upslope":             0x2571, // ╱
	"downslope":           0x2572, // ╲
	"subsetnoteql":        0x228A, // ⊊
	"supersetnoteql":      0x228B, // ⊋
	"notsubseteql":        0x2288, // ⊈
	"notsuperseteql":      0x2289, // ⊉
}
