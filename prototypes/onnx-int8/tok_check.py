"""Does Hugging Face ``tokenizers`` (built from vocab.txt, nothing downloaded) give the project's ids?

    .venv/bin/python tok_check.py

Compares ids on a varied sample (the ~445 memory texts plus edge cases: accents, CJK, emoji, code,
control characters, long words, long texts truncated at 256 pieces) and times both tokenizers.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus

from loa_memory.search.embed import minilm, mpnet
from loa_memory.search.embed.wordpiece import WordPiece

EDGE = [
    "Café déjà vu — naïve résumé, Ångström, Ærø, straße, İstanbul, ǅ, ﬁ ligature",
    "中文分词测试：数据库迁移失败。日本語のテキスト、한국어 텍스트",
    "emoji 🚀🔥 deploy ✅ failed ❌ 👍🏽 family 👨‍👩‍👧 flags 🇺🇸",
    "def f(x: int) -> dict[str, list[int]]:\n\treturn {'a': [x**2, x//3]}  # comment @decorator $var %mod",
    "path/to/file_name.py:123:45 error E501 line too long (121 > 120 characters) https://example.com/a?b=c&d=e",
    "zero\u200bwidth\u200djoiner soft\u00adhyphen nbsp\u00a0here tab\there\r\nCRLF \x00nul \x07bell \ufffdrepl",
    "a" * 99 + " " + "b" * 100 + " " + "c" * 101 + " " + "d" * 250,
    "supercalifragilisticexpialidocious antidisestablishmentarianism pneumonoultramicroscopicsilicovolcanoconiosis",
    "Ελληνικά κείμενα, русский текст, עברית, العربية, हिन्दी, ไทย",
    "MIXED case WORDS, CamelCaseIdentifiers and snake_case_names; kebab-case-too; dotted.names.here",
    "quotes “curly” ‘single’ «guillemets» „low“ – en — em … ellipsis · middot",
    "math ∑ ∫ √ ≤ ≥ ≠ ± × ÷ ∞ µ ° ™ © ® § ¶ † ‡ ½ ² ³",
    "   leading and trailing spaces   ",
    "",
    "combining: e\u0301 a\u0308 n\u0303 o\u0302 precomposed: é ä ñ ô",
    "fullwidth ＡＢＣ １２３ ｶﾀｶﾅ halfwidth",
    "long " * 400,
    "The quick brown fox. " * 60,
]


def hf_tokenizer(vocab: Path, cls: str, sep: str) -> object:
    from tokenizers import BertWordPieceTokenizer

    tok = BertWordPieceTokenizer(str(vocab), lowercase=True, strip_accents=None, clean_text=True,
                                 handle_chinese_chars=True, unk_token="[UNK]", cls_token=cls, sep_token=sep)
    tok.enable_truncation(max_length=256)
    return tok


def compare(name: str, vocab_path: Path, cls: str, sep: str, texts: list[str]) -> None:
    vocab = vocab_path.read_text(encoding="utf-8").splitlines()
    ours = WordPiece(vocab, cls=cls, sep=sep)
    hf = hf_tokenizer(vocab_path, cls, sep)
    mismatches = 0
    for text in texts:
        a = ours.encode(text, 256)
        b = hf.encode(text).ids  # type: ignore[attr-defined]
        if a != b:
            mismatches += 1
            if mismatches <= 5:
                first = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
                print(f"  {name} MISMATCH {text[:60]!r}: at {first}: ours {a[first:first + 5]} hf {b[first:first + 5]} "
                      f"(lens {len(a)} {len(b)})")
    print(f"{name}: {len(texts) - mismatches}/{len(texts)} texts give identical ids")
    sample = corpus.sample()
    ours2 = WordPiece(vocab, cls=cls, sep=sep)  # cold lru cache, as in a fresh process
    t = time.perf_counter()
    for text in sample:
        ours2.encode(text, 256)
    cold = time.perf_counter() - t
    t = time.perf_counter()
    for text in sample:
        ours2.encode(text, 256)
    warm = time.perf_counter() - t
    t = time.perf_counter()
    hf.encode_batch(sample)  # type: ignore[attr-defined]
    fast = time.perf_counter() - t
    t = time.perf_counter()
    hf.encode_batch(sample)  # type: ignore[attr-defined]
    fast_warm = time.perf_counter() - t
    print(f"  speed on {len(sample)} ~700-byte texts: project WordPiece {cold * 1e3:.0f} ms cold / {warm * 1e3:.0f} ms "
          f"warm, tokenizers encode_batch {fast * 1e3:.0f} ms first / {fast_warm * 1e3:.0f} ms second call")


def main() -> None:
    texts = corpus.memory_texts() + EDGE + [t.upper() for t in EDGE]
    directory = mpnet.cache_dir()
    compare("mpnet", directory / "vocab.txt", "<s>", "</s>", texts)
    source = minilm.find_model()
    assert source is not None and not source.zipped
    compare("minilm", source.path / "vocab.txt", "[CLS]", "[SEP]", texts)


if __name__ == "__main__":
    main()
