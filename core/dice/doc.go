// Package dice reads, rolls and weighs generic dice notation.
//
// Parse turns text into an expression tree with a typed lexer and a
// recursive-descent parser (nothing is ever evaluated as code). Roll rolls
// it with an injected Source; Odds computes the exact distribution of its
// total. Result.Spans renders a roll as reply spans.
//
// # Notation
//
//	[N#] expr [target] [label] [?] [# label] [?]
//
//	NdM       N dice of M sides (N defaults to 1): 2d6, d20, 2δ6, 2Δ6
//	d%  dF    a d100; a Fudge die (−1, 0, +1, shown -, 0, +)
//	khN klN   keep the N highest / lowest (N defaults to 1; k = kh)
//	dhN dlN   drop the N highest / lowest
//	!  !!  !p explode (another die, shown apart), compound (added into the
//	          same die), penetrate (another die, counting one less); on the
//	          highest face, or at a glued compare point: !>=5, !>4, !=6, !<2, !6
//	r  ro     reroll while the face matches / reroll once; on the lowest
//	          face, or at a glued compare point: r1, r<3, ro<=2; several
//	          points, all r or all ro: 8d6r2r4r6
//	>=N <=N >N <N =N   on a dice term: count successes (each die scores 1).
//	          As in Roll20, >N is "N or more" and <N "N or less", in every
//	          compare point (successes, explosions, rerolls, groups);
//	          ≥ and ≤ are read too, and Shown writes them so
//	min N  max N   what each die counts at least / at most: 4d6min2
//	cs cf     with a compare point: mark critical successes / failures
//	          (a mark only): 1d20cs>19cf1
//	d N       glued to a term: drop the N lowest (Roll20's 8d100d3)
//	(X)dM NdX a rolled number of dice or sides: (1d4)d6, 2d(1d6); X is
//	          plain dice and numbers whose highest value is known
//	f<=1      with a success condition: each failure scores −1 (f = f=lowest)
//	s sa sd   show the term's dice lowest first (s, sa) or highest first
//	          (sd): 8d6s, 4d6kh3sd. Only the order shown changes; a die
//	          with its explosion chain stays together, ranked by its sum
//	{a, b}    a grouped roll (Roll20's): several expressions, each rolled
//	          and totalled; with khN klN dhN dlN it keeps or drops totals,
//	          with a condition (>=N … and f) it counts them: {1d20, 1d20}kh1,
//	          {3d20+5, 2d10}>=15. With one expression and a modifier it
//	          acts on every die of its dice terms: {4d6+3d8}kh1, {3d20}>=15
//	+ - * /   arithmetic, with ( ) and floor( ) ceil( ) round( ) abs( ),
//	% **      remainder (the sign of the left side) and power (exponent ≥ 0)
//	max( ) min( )  the largest / smallest of up to MaxItems expressions
//	name      a named value, resolved by the caller's Lookup: fuerza,
//	          δύναμη, fue_2; @Drake.fuerza (or @Drake:fuerza) is another
//	          character's value. A name is letters, digits and _, starting
//	          with a letter or _; vs, dc, cd, contra, εναντίον, κατά, floor,
//	          ceil, round and abs are reserved.
//	N#expr    N separate rolls (the digits glued to #): 6#4d6kh3
//	vs N      after the expression: compare its TOTAL with N (success when
//	          total ≥ N); also dc N, dc12, cd N, contra N, εναντίον N, κατά N.
//	          The target has no dice; it may use names and arithmetic.
//	[text]    a label on the term before it: 2d6[fuego]+1d4[frío]
//	# text    a label for the whole roll: 1d20+5 # ataque
//	?         at the end: show the odds (also ';' and U+037E, the Greek
//	          question mark; a label "¿...?" keeps its question mark)
//
// Letters are case-insensitive; spaces are allowed between tokens, but not
// inside a term (4d6kh3, 8d10>=7 and 8d10 >= 7 are fine; 4 d6 is not).
//
// # Order of operations
//
// For each dice term, in this order:
//
//  1. Each die is rolled; a reroll (r, ro) is applied to every face drawn,
//     explosion faces included.
//  2. Explosions: a face meeting the explode condition draws another die
//     (!, !p: a separate die, counting face−1 for !p; !!: added into the
//     same die). The condition is checked on the face, after rerolls.
//  3. min and max change what each die counts; keep/drop ranks the dice
//     as they count, every die on its own, one an explosion added too
//     (Roll20's "rolls an additional die"). Among equal values the
//     earlier die ranks first. A keep of more dice than there are keeps
//     them all.
//  4. The term's value: the sum of the kept dice, or, with a success
//     condition, +1 for each kept die that meets it and −1 for each that
//     meets the failure condition instead.
//  5. Sorting (s, sd) only orders the dice when the roll is written;
//     Result.Dice keeps them in the order rolled.
//
// Then the arithmetic: ** (right to left, binding tighter than a sign:
// -2**2 = -4), unary minus, then * / %, then + and -, left to right, with
// parentheses first. All values are integers. A bare / divides and rounds
// down (toward −∞): 7/2 = 3, -7/2 = -4, and Result.Rounded records the
// first time it dropped a fraction, for the reply to say so. floor(a/b), ceil(a/b)
// and round(a/b) divide with that rounding (round: halves up, 5/2 → 3);
// on anything but a division they change nothing, since every value is
// already whole. Division by zero is an error, never infinity.
//
// # Grouped rolls
//
// A group {a, b, …} holds 1 to MaxItems expressions separated by commas
// and is a term of the arithmetic ({1d20, 1d20}kh1 + 5). Each expression
// is rolled and totalled in order. Then:
//
//   - without a modifier, the group is the sum of the totals;
//   - khN klN dhN dlN keep or drop totals (among equal totals the earlier
//     expression ranks first), and the group is the sum of those kept;
//   - a success condition counts the kept totals that meet it, −1 for each
//     that meets the failure condition (f<=3) instead. A group's f needs
//     its compare point.
//
// The comparisons mean what they mean on dice: >N and >=N are N or more.
// One expression with a condition and numbers or names added,
// {3d20+5}>21 (Roll20's example), compares its total.
//
// With one expression and a modifier, the modifier acts on the dice:
// every die of its dice terms is rolled as written (rerolls and
// explosions included), then they are ranked together and kept or
// dropped as one pool, as in step 3 above, and the condition counts the
// kept ones, as in step 4. That expression must be dice terms added
// together, without keep/drop or a condition of their own; with keep/drop
// (not with a condition) it may add numbers and names: {4d6+3d8+2}kh1.
// A group inside a group is refused (CodeGroupNested); the braces count
// as one level of nesting, like a parenthesis, and a target cannot hold a
// group.
//
// A target compares the total: success when total ≥ target. For a success
// pool (8d10>=7 vs 3) the total is the number of successes, so the target
// is "at least 3 successes".
//
// # Limits
//
// Input ≤ MaxInput characters; ≤ MaxDice dice per term; ≤ MaxSides sides;
// ≤ MaxDraws random draws per command (explosions and rerolls included:
// the dice written are checked before rolling, the extra draws while
// rolling); repeat ≤ MaxRepeat; nesting ≤ MaxDepth; ≤ MaxNodes numbers,
// names, terms and groups; ≤ MaxGroups dice terms; ≤ MaxItems
// expressions in a group; literals ≤ MaxNumber; every
// intermediate value within ±MaxMagnitude. A die that would always explode
// (1d1!, 1d6!>=1) or a reroll that matches every face (1d6r<7) is rejected
// before rolling. Each limit is an *Error with its own Code.
//
// # Odds
//
// See Expr.Odds: exact by convolution and order-statistics dynamic
// programming with math/big counts; approximate (flagged) for explosions,
// which are truncated, and for expressions whose exact computation would
// exceed a work budget, which are sampled. A group's expressions are
// independent: their totals add by convolution, their successes are a
// sum of Bernoulli variables, the highest or lowest one kept comes from
// products of their cumulative distributions, and other keeps from the
// order-statistics program with a state per kind of total (or of die).
//
// Sums of many dice whose counts pass 128 bits (12d10!, 100d6) are
// convolved by Kronecker substitution, one math/big product of numbers
// whose digits are the counts, and raised to the number of dice by
// squaring; keep and drop walk the faces, not the dice (Icepool's
// multiset walk, Liu, AIIDE 2022), over machine words or packed vectors.
// Sampled figures keep each total's share of the samples (Odds.Samples).
//
// # The odds core for other packages
//
// Dist (dist.go) gives the same computations to other packages, a
// system's pools built from dice, keeps, counts and explosions: see Dist.
package dice
