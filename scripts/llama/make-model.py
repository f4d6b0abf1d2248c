#!/usr/bin/env python3
"""Writes a tiny stand-in chat model as a GGUF file: llama architecture, a small SentencePiece-style vocabulary, the
ChatML chat template and random weights (seeded, so the same script writes the same file). Its words are noise; its
tokenizer, chat template, sampling, grammar and streaming are real llama.cpp.

The weights make it nearly a bigram model that likes to stop: every token's embedding carries a constant in its first
dimension, and the output rows of the end-of-turn token and of JSON's closing characters weigh that dimension up, so a
free answer ends after some tens of tokens and a JSON string closes soon (the grammar decides where it may). A second
constant dimension keeps the end of a turn away until the answer has a word.

Usage: make-model.py <out.gguf>   (needs the `gguf` package and numpy)
"""
import sys

import numpy as np
import gguf

SEED = 20261127
N_EMBD = 64
N_HEAD = 4
N_FF = 128
N_LAYER = 2
N_CTX_TRAIN = 32768

WORDS = """the a an and or but of to in on at for with from by as is are was were be been it its this that these those
we you they he she i our your their my not no yes can will would should could may might must do does did have has had
more less most very so too also only just all each every some any other same new old good bad best better light dark
warm cool colour color bright soft bold clear simple brand client brief team design image option remix bottle glass
label logo font type shape form style mood tone line space point keep change add cut left out kept changed member
designer proxy round turn rank first second third top pick choice agree disagree because like love prefer think feel
see look make made want need why how what which who when where here there than then now still about into over under
""".split()

SPECIAL = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>']
CHATML = ("{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}"
          "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}")
# Tokens the weights favour: the end of a turn (im_end) and what closes JSON values.
ENDERS = {'<|im_end|>': 3.5, '"': 4.5, '}': 4.5, ']': 4.5, ',': 2.0, '▁': 1.5}


def vocabulary():
    tokens, types = list(SPECIAL), [gguf.TokenType.UNKNOWN] + [gguf.TokenType.CONTROL] * (len(SPECIAL) - 1)
    for b in range(256):
        tokens.append(f'<0x{b:02X}>')
        types.append(gguf.TokenType.BYTE)
    seen = set(tokens)

    def add(piece):
        if piece not in seen:
            seen.add(piece)
            tokens.append(piece)
            types.append(gguf.TokenType.NORMAL)

    add('▁')
    for c in range(33, 127):
        add(chr(c))
    for w in WORDS:  # every prefix, so SentencePiece's merges reach the word from its characters
        piece = '▁' + w
        for end in range(2, len(piece) + 1):
            add(piece[:end])
    return tokens, types


def main(out):
    rng = np.random.default_rng(SEED)
    tokens, types = vocabulary()
    n_vocab = len(tokens)
    # Longer pieces first when SentencePiece merges.
    scores = [0.0 if t != gguf.TokenType.NORMAL else -1000.0 + len(tok) for tok, t in zip(tokens, types)]

    w = gguf.GGUFWriter(out, 'llama')
    w.add_name('teamfusion-tiny-standin')
    w.add_context_length(N_CTX_TRAIN)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD)
    w.add_rope_dimension_count(N_EMBD // N_HEAD)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_vocab_size(n_vocab)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_tokenizer_model('llama')
    w.add_token_list(tokens)
    w.add_token_scores(scores)
    w.add_token_types(types)
    w.add_bos_token_id(1)
    w.add_eos_token_id(tokens.index('<|im_end|>'))
    w.add_eot_token_id(tokens.index('<|im_end|>'))
    w.add_unk_token_id(0)
    w.add_add_bos_token(False)
    w.add_add_space_prefix(True)
    w.add_chat_template(CHATML)

    f32 = lambda a: np.asarray(a, dtype=np.float32)
    embd = rng.normal(0.0, 1.0, (n_vocab, N_EMBD))
    embd[:, 0] = 4.0
    # The second dimension says whether a token has words in it: +4 for a word or a sign, -4 for a bare space, a byte (a
    # newline is one) or a control token. The end of a turn needs it positive, so an answer never ends before its first
    # word (an empty answer) and never right after a space.
    wordy = [t == gguf.TokenType.NORMAL and tok != '▁' for tok, t in zip(tokens, types)]
    embd[:, 1] = np.where(wordy, 4.0, -4.0)
    out_w = rng.normal(0.0, 0.14, (n_vocab, N_EMBD))
    out_w[:, 0:2] = 0.0
    after_norm = 4.0 / np.sqrt((16 + 16 + N_EMBD - 2) / N_EMBD)  # the two constants after the RMS norm: about 3.3
    end_of_turn = tokens.index('<|im_end|>')
    for i, (tok, t) in enumerate(zip(tokens, types)):
        if tok in ENDERS:
            out_w[i, 0] = ENDERS[tok] / after_norm
        elif t != gguf.TokenType.NORMAL:
            out_w[i, 0] = -30.0 / after_norm  # never a control or byte token of its own accord
    # The end of a turn: its weight after a word (ENDERS), 10 less after a space, a newline or the prompt's end.
    out_w[end_of_turn, 0] = (ENDERS['<|im_end|>'] - 5.0) / after_norm
    out_w[end_of_turn, 1] = 5.0 / after_norm
    w.add_tensor('token_embd.weight', f32(embd))
    w.add_tensor('output_norm.weight', f32(np.ones(N_EMBD)))
    w.add_tensor('output.weight', f32(out_w))
    small = lambda *shape: f32(rng.normal(0.0, 0.02, shape))
    for b in range(N_LAYER):
        w.add_tensor(f'blk.{b}.attn_norm.weight', f32(np.ones(N_EMBD)))
        w.add_tensor(f'blk.{b}.attn_q.weight', small(N_EMBD, N_EMBD))
        w.add_tensor(f'blk.{b}.attn_k.weight', small(N_EMBD, N_EMBD))
        w.add_tensor(f'blk.{b}.attn_v.weight', small(N_EMBD, N_EMBD))
        w.add_tensor(f'blk.{b}.attn_output.weight', small(N_EMBD, N_EMBD))
        w.add_tensor(f'blk.{b}.ffn_norm.weight', f32(np.ones(N_EMBD)))
        w.add_tensor(f'blk.{b}.ffn_gate.weight', small(N_FF, N_EMBD))
        w.add_tensor(f'blk.{b}.ffn_up.weight', small(N_FF, N_EMBD))
        w.add_tensor(f'blk.{b}.ffn_down.weight', small(N_EMBD, N_FF))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit('usage: make-model.py <out.gguf>')
    main(sys.argv[1])
