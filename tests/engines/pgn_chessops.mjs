// SPDX-License-Identifier: MIT
// The independent reader for pgn_files.py: chessops (npm), which reads PGN,
// X-FEN and Shredder-FEN on its own. Two commands, JSON on stdout:
//   node pgn_chessops.mjs san < games.json
//       [{fen, moves: [uci...]}] -> [[san...]]: the movetext of each game
//       (chessops reads king-takes-rook castling, Stockfish's Chess960 UCI).
//   node pgn_chessops.mjs check ORIGINAL.pgn CONVERTED.pgn
//       parsePgn on both: the games, their tags (but FEN, SetUp and a
//       Variant tag CONVERTED added), their
//       moves; every game of CONVERTED replayed from its own start
//       position; -> {games, checked, castles, errors: [...], finals: [fen]}
//   node pgn_chessops.mjs replay GAMES.pgn
//       every game replayed from its start (XBoard's saved games, for
//       xboard_gui.py) -> {games, checked, castles, errors, finals}
import { readFileSync } from 'node:fs';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseFen, makeFen } from 'chessops/fen';
import { Chess } from 'chessops/chess';
import { parseUci } from 'chessops/util';
import { makeSan, parseSan } from 'chessops/san';

const cmd = process.argv[2];

if (cmd === 'san') {
  const games = JSON.parse(readFileSync(0, 'utf8'));
  const out = games.map((g) => {
    const pos = Chess.fromSetup(parseFen(g.fen).unwrap()).unwrap();
    return g.moves.map((u) => {
      const m = parseUci(u);
      const san = makeSan(pos, m);
      pos.play(m);
      return san;
    });
  });
  process.stdout.write(JSON.stringify(out));
} else if (cmd === 'check') {
  // latin1 keeps every byte a character: tags compare byte for byte.
  const read = (f) => parsePgn(readFileSync(f, 'latin1'));
  const a = read(process.argv[3]), b = read(process.argv[4]);
  const res = { games: b.length, checked: 0, castles: 0, errors: [], finals: [] };
  const err = (i, what) => res.errors.length < 20 && res.errors.push(`game ${i + 1}: ${what}`);
  if (a.length !== b.length) err(-1, `${a.length} games before, ${b.length} after`);
  const sans = (g) => [...g.moves.mainline()].map((n) => n.san);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const ha = new Map(a[i].headers), hb = new Map(b[i].headers);
    for (const k of new Set([...ha.keys(), ...hb.keys()])) {
      if (k === 'FEN' || k === 'SetUp' || (k === 'Variant' && !ha.has(k))) continue;
      if (ha.get(k) !== hb.get(k)) err(i, `tag ${k}: ${ha.get(k)} -> ${hb.get(k)}`);
    }
    if (ha.has('FEN') && hb.get('SetUp') !== '1') err(i, 'no SetUp "1" after conversion');
    if (sans(a[i]).join(' ') !== sans(b[i]).join(' ')) err(i, 'moves differ');
    const start = startingPosition(b[i].headers);
    if (start.isErr) { err(i, `start position: ${start.error.message}`); continue; }
    const pos = start.value;
    if (ha.has('FEN')) {
      const before = parseFen(ha.get('FEN')).unwrap(), after = parseFen(hb.get('FEN')).unwrap();
      if (!before.castlingRights.equals(after.castlingRights))
        err(i, `castling rooks differ: ${ha.get('FEN')} -> ${hb.get('FEN')}`);
    }
    let ok = true;
    for (const san of sans(b[i])) {
      const m = parseSan(pos, san);
      if (!m) { err(i, `illegal ${san} at ${makeFen(pos.toSetup())}`); ok = false; break; }
      if (san.startsWith('O-O')) res.castles++;
      pos.play(m);
    }
    res.finals.push(makeFen(pos.toSetup()));
    if (ok) res.checked++;
  }
  process.stdout.write(JSON.stringify(res));
} else if (cmd === 'replay') {
  const games = parsePgn(readFileSync(process.argv[3], 'latin1'));
  const res = { games: games.length, checked: 0, castles: 0, errors: [], finals: [] };
  games.forEach((g, i) => {
    const start = startingPosition(g.headers);
    if (start.isErr) { res.errors.push(`game ${i + 1}: start position: ${start.error.message}`); return; }
    const pos = start.value;
    for (const n of g.moves.mainline()) {
      const m = parseSan(pos, n.san);
      if (!m) { res.errors.push(`game ${i + 1}: illegal ${n.san} at ${makeFen(pos.toSetup())}`); return; }
      if (n.san.startsWith('O-O')) res.castles++;
      pos.play(m);
    }
    res.finals.push(makeFen(pos.toSetup()));
    res.checked++;
  });
  process.stdout.write(JSON.stringify(res));
} else {
  console.error('usage: node pgn_chessops.mjs san|check|replay ...');
  process.exit(2);
}
