package ollamatest

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Tiny models written at test time. No pretrained weights can be fetched
// here, so the tests make their own: they exercise the real server, its
// model loading, tokenizer, sampler and JSON-schema grammar, never the
// quality of what a real model says.

// writeTinyLlama writes a llama-architecture chat model: a SentencePiece
// vocabulary of <unk>, <s>, </s>, the 256 byte-fallback tokens <0x00> …
// <0xFF>, "▁" and the printable ASCII characters, so any text tokenizes;
// two transformer blocks of width 64 with random weights drawn from seed
// (the same seed gives the same file, byte for byte).
func writeTinyLlama(path string, seed uint64) error {
	var tokens []string
	var scores []float32
	var types []int32
	add := func(s string, score float32, typ int32) {
		tokens = append(tokens, s)
		scores = append(scores, score)
		types = append(types, typ)
	}
	// Token types as llama.cpp numbers them: 1 normal, 2 unknown, 3
	// control, 6 byte.
	add("<unk>", 0, 2)
	add("<s>", 0, 3)
	add("</s>", 0, 3)
	for b := 0; b < 256; b++ {
		add(fmt.Sprintf("<0x%02X>", b), 0, 6)
	}
	add("▁", -1, 1)
	for c := byte('!'); c <= '~'; c++ {
		add(string(c), -2-float32(c-'!'), 1)
	}
	const (
		embd   = 64
		ff     = 128
		heads  = 4
		blocks = 2
		ctx    = 8192
	)
	nv := uint64(len(tokens))
	r := rand.New(rand.NewPCG(seed, 0x6c6c616d61))
	normal := func(n uint64, scale float64) []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = float32(r.NormFloat64() * scale)
		}
		return out
	}
	ones := func(n uint64) []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = 1
		}
		return out
	}
	ts := []tensor{
		{"token_embd.weight", []uint64{embd, nv}, normal(embd*nv, 1)},
		{"output_norm.weight", []uint64{embd}, ones(embd)},
		{"output.weight", []uint64{embd, nv}, normal(embd*nv, 1/math.Sqrt(embd))},
	}
	for b := 0; b < blocks; b++ {
		p := fmt.Sprintf("blk.%d.", b)
		ts = append(ts,
			tensor{p + "attn_norm.weight", []uint64{embd}, ones(embd)},
			tensor{p + "attn_q.weight", []uint64{embd, embd}, normal(embd*embd, 1/math.Sqrt(embd))},
			tensor{p + "attn_k.weight", []uint64{embd, embd}, normal(embd*embd, 1/math.Sqrt(embd))},
			tensor{p + "attn_v.weight", []uint64{embd, embd}, normal(embd*embd, 1/math.Sqrt(embd))},
			tensor{p + "attn_output.weight", []uint64{embd, embd}, normal(embd*embd, 1/math.Sqrt(embd))},
			tensor{p + "ffn_norm.weight", []uint64{embd}, ones(embd)},
			tensor{p + "ffn_gate.weight", []uint64{embd, ff}, normal(embd*ff, 1/math.Sqrt(embd))},
			tensor{p + "ffn_up.weight", []uint64{embd, ff}, normal(embd*ff, 1/math.Sqrt(embd))},
			tensor{p + "ffn_down.weight", []uint64{ff, embd}, normal(ff*embd, 1/math.Sqrt(ff))},
		)
	}
	meta := []kv{
		{"general.architecture", "llama"},
		{"general.name", "crossmem tiny llama"},
		{"general.file_type", uint32(0)}, // all F32
		{"llama.context_length", uint32(ctx)},
		{"llama.embedding_length", uint32(embd)},
		{"llama.feed_forward_length", uint32(ff)},
		{"llama.block_count", uint32(blocks)},
		{"llama.attention.head_count", uint32(heads)},
		{"llama.attention.head_count_kv", uint32(heads)},
		{"llama.attention.layer_norm_rms_epsilon", float32(1e-5)},
		{"llama.rope.dimension_count", uint32(embd / heads)},
		{"llama.rope.freq_base", float32(10000)},
		{"llama.vocab_size", uint32(nv)},
		{"tokenizer.ggml.model", "llama"},
		{"tokenizer.ggml.tokens", tokens},
		{"tokenizer.ggml.scores", scores},
		{"tokenizer.ggml.token_type", types},
		{"tokenizer.ggml.unknown_token_id", uint32(0)},
		{"tokenizer.ggml.bos_token_id", uint32(1)},
		{"tokenizer.ggml.eos_token_id", uint32(2)},
		{"tokenizer.ggml.add_bos_token", true},
		{"tokenizer.ggml.add_eos_token", false},
	}
	return writeGGUF(path, meta, ts)
}

// writeTinyBERT writes a BERT-architecture embedding model whose vector
// for a text is, in effect, the mean of random vectors of its WordPiece
// tokens: the vocabulary holds every lower-case letter n-gram up to three
// letters, digits and ASCII punctuation, each word-initial (GGML's "▁"
// prefix) and as a continuation, and the attention and feed-forward layers are zero so each
// block passes its input through its residual connection and layer norm.
// Texts that share words share tokens and so point the same way; that is
// all the vector lane's tests ask of it.
func writeTinyBERT(path string, seed uint64) error {
	tokens := []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}
	types := []int32{3, 2, 3, 3, 3}
	grams := []string{""}
	var all []string
	for n := 1; n <= 3; n++ {
		var next []string
		for _, g := range grams {
			for c := 'a'; c <= 'z'; c++ {
				next = append(next, g+string(c))
			}
		}
		all = append(all, next...)
		grams = next
	}
	for c := byte('!'); c <= '~'; c++ {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			continue
		}
		all = append(all, string(c))
	}
	for _, g := range all {
		tokens = append(tokens, "▁"+g, g)
		types = append(types, 1, 1)
	}
	const (
		embd   = 32
		ff     = 64
		heads  = 2
		blocks = 1
		ctx    = 2048
	)
	nv := uint64(len(tokens))
	r := rand.New(rand.NewPCG(seed, 0x62657274))
	normal := func(n uint64) []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = float32(r.NormFloat64())
		}
		return out
	}
	fill := func(n uint64, v float32) []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	ts := []tensor{
		{"token_embd.weight", []uint64{embd, nv}, normal(embd * nv)},
		{"token_types.weight", []uint64{embd, 2}, fill(embd*2, 0)},
		{"position_embd.weight", []uint64{embd, ctx}, fill(embd*ctx, 0)},
		{"token_embd_norm.weight", []uint64{embd}, fill(embd, 1)},
		{"token_embd_norm.bias", []uint64{embd}, fill(embd, 0)},
	}
	for b := 0; b < blocks; b++ {
		p := fmt.Sprintf("blk.%d.", b)
		for _, name := range []string{"attn_q", "attn_k", "attn_v", "attn_output"} {
			ts = append(ts,
				tensor{p + name + ".weight", []uint64{embd, embd}, fill(embd*embd, 0)},
				tensor{p + name + ".bias", []uint64{embd}, fill(embd, 0)})
		}
		ts = append(ts,
			tensor{p + "attn_output_norm.weight", []uint64{embd}, fill(embd, 1)},
			tensor{p + "attn_output_norm.bias", []uint64{embd}, fill(embd, 0)},
			tensor{p + "ffn_up.weight", []uint64{embd, ff}, fill(embd*ff, 0)},
			tensor{p + "ffn_up.bias", []uint64{ff}, fill(ff, 0)},
			tensor{p + "ffn_down.weight", []uint64{ff, embd}, fill(ff*embd, 0)},
			tensor{p + "ffn_down.bias", []uint64{embd}, fill(embd, 0)},
			tensor{p + "layer_output_norm.weight", []uint64{embd}, fill(embd, 1)},
			tensor{p + "layer_output_norm.bias", []uint64{embd}, fill(embd, 0)},
		)
	}
	meta := []kv{
		{"general.architecture", "bert"},
		{"general.name", "crossmem tiny bert"},
		{"general.file_type", uint32(0)},
		{"bert.context_length", uint32(ctx)},
		{"bert.embedding_length", uint32(embd)},
		{"bert.feed_forward_length", uint32(ff)},
		{"bert.block_count", uint32(blocks)},
		{"bert.attention.head_count", uint32(heads)},
		{"bert.attention.layer_norm_epsilon", float32(1e-12)},
		{"bert.attention.causal", false},
		{"bert.pooling_type", uint32(1)}, // mean
		{"tokenizer.ggml.model", "bert"},
		{"tokenizer.ggml.tokens", tokens},
		{"tokenizer.ggml.token_type", types},
		{"tokenizer.ggml.padding_token_id", uint32(0)},
		{"tokenizer.ggml.unknown_token_id", uint32(1)},
		{"tokenizer.ggml.cls_token_id", uint32(2)},
		{"tokenizer.ggml.seperator_token_id", uint32(3)},
		{"tokenizer.ggml.mask_token_id", uint32(4)},
		{"tokenizer.ggml.bos_token_id", uint32(2)},
		{"tokenizer.ggml.eos_token_id", uint32(3)},
	}
	return writeGGUF(path, meta, ts)
}
