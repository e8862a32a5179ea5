// Boards as text for terminals and logs: Xiangqi-style variants as a grid of
// points with Chinese piece names, river and palaces; other variants as a
// square grid with letters or Unicode symbols. Also the terminal width of
// UTF-8 text (CJK characters take two columns), for aligned columns.
#pragma once

#include <string>

#include "variants/position.h"

namespace canju {

struct BoardStyle {
  bool color = false;    // ANSI colours (the caller decides: a tty, or forced)
  bool unicode = false;  // square grids: the definition's Unicode symbols where it has them
};

// The board, ending with a newline. Xiangqi style (notation = xiangqi): file
// numbers 1..n for the second player on top, 九..一 for the first player
// below, ICCS coordinates on the left and at the bottom. Square grids: rank
// numbers on the left (two digits from 10 up), file letters below.
std::string RenderBoard(const Position& pos, const BoardStyle& style = {});

// What the position is: side to move, check, or the end of the game.
enum class GameState { kPlaying, kCheck, kCheckmate, kStalemate, kNoRoyal };
GameState StateOf(const Position& pos);
// "Red to move", "Red to move, in check", "checkmate: Black wins",
// "stalemate (困毙): Red has no legal move and loses".
std::string DescribeState(const Position& pos);

// Columns a UTF-8 string takes on a terminal (East Asian wide and fullwidth
// characters 2, combining marks 0, ANSI escape sequences 0).
int DisplayWidth(const std::string& utf8);
// Pads with spaces on the right to `width` columns (never truncates).
std::string PadRight(const std::string& utf8, int width);

}  // namespace canju
