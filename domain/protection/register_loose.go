package protection

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// A name in the register may come back written another way: a capital I
// for an l ("NurIanqyzy"), a combining mark on a letter, or the other
// script: Kazakhstan writes one name in Cyrillic and in Latin letters, and
// "Айгерим Нурланкызы" is "Aigerim Nurlanqyzy". NameKey catches what looks
// alike within one script (TR 39); looseKey, compared as well (Matches),
// catches the rest. It works from a NameKey, which is what the register
// stores, so the entries already kept are compared this way too:
//
//   - combining marks are dropped (ё, қ, ө, ұ and ä, ö, ü, ş lose theirs);
//   - the look-alikes NameKey made of Cyrillic letters (ᴎ for и, ʜ for н,
//     ĸ for к, ʍ for м, ƅi for ы, ...) are read back as the Latin letters
//     that spell their sounds, and the Cyrillic letters it kept (д, ж, л,
//     ш, ...) likewise; NameKey's "rn" (its skeleton of m) is m again, and
//     "kh" is h;
//   - letters a reader or a transliteration confuses are one class: i, l,
//     y, u, j (I for l; у is drawn y; ы, й, і, ұ, ү are y, i or u in Latin
//     spellings), r, p, g (р is drawn p, г is drawn r), s and c, k and q,
//     h and x, v and w;
//   - the letters are sorted, so that the words' order (which sorting
//     NameKey's words fixed per script) does not matter.
//
// It is coarse on purpose: an entry matches only with the same date of
// birth as well, and the register errs towards refusing.
func looseKey(nameKey string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(nameKey) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	s := looseDigraphs.Replace(b.String())
	out := make([]rune, 0, len(s))
	for _, r := range s {
		spelled, ok := cyrillicSounds[r]
		if !ok {
			spelled = string(r)
		}
		for _, c := range looseDigraphs2.Replace(spelled) {
			if k, ok := looseClass[c]; ok {
				c = k
			}
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return string(out)
}

// looseDigraphs undoes NameKey's multi-character skeletons: ы is "ƅi",
// ъ "ˉb", ь "ƅ", Latin m "rn".
var looseDigraphs = strings.NewReplacer("ƅi", "i", "ˉb", "", "ƅ", "", "rn", "m", "kh", "h")

// looseDigraphs2 folds the Latin spellings of one Cyrillic letter.
var looseDigraphs2 = strings.NewReplacer("kh", "h")

// cyrillicSounds spells in Latin the Cyrillic letters, and NameKey's
// skeletons of them, that the classes below do not already cover.
var cyrillicSounds = map[rune]string{
	'6': "b", 'ʙ': "v", 'д': "d", 'ж': "zh", 'ɜ': "z", 'ᴎ': "i", 'ĸ': "k", 'л': "l", 'ʍ': "m", 'ʜ': "n",
	'π': "p", 'ᴛ': "t", 'ɸ': "f", 'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "shch", 'э': "e", 'ю': "iu", 'ᴙ': "ia",
	'ǝ': "a", 'ı': "i",
	// Cyrillic letters NameKey may have left as they are.
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'ғ': "g", 'е': "e", 'ё': "e", 'з': "z", 'и': "i", 'й': "i",
	'к': "k", 'қ': "k", 'м': "m", 'н': "n", 'ң': "n", 'о': "o", 'ө': "o", 'п': "p", 'р': "r", 'с': "s",
	'т': "t", 'у': "u", 'ұ': "u", 'ү': "u", 'ф': "f", 'х': "h", 'һ': "h", 'ы': "y", 'і': "i", 'я': "ia", 'ә': "a",
	'ъ': "", 'ь': "",
}

// looseClass maps each letter of a class to the class's one letter.
var looseClass = map[rune]rune{
	'l': 'i', 'y': 'i', 'u': 'i', 'j': 'i', '1': 'i', '|': 'i',
	'p': 'r', 'g': 'r',
	'c': 's', 'q': 'k', 'x': 'h', 'w': 'v',
}
