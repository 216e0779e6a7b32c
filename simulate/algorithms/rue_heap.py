"""RUE's argmax without a pass over the arms (known variances): the same pulls and the same
recommendation as `rue._block`, tie-breaking included, in O(log K) work a round plus the arms
evaluated.

The bound. With sigma0^2 and sigma^2 known, arm k's index is
    U_k = o_k R + (1 - o_k) rbar_k + c sqrt(sigma0^2 o_k + o_k^2 d),   o_k = sigma^2 / (T_k sigma0^2 + sigma^2),
R = rbar_0 = sum_j o_j S_j / sum_j o_j T_j and d = sigma^2 / sum_j o_j T_j. While arm k is not pulled,
o_k and rbar_k stay put; d only shrinks (T o = T sigma^2 / (T sigma0^2 + sigma^2) grows with T, so
pulling any arm raises sum_j o_j T_j), so the square root only shrinks; R moves, entering with the
weight o_k in (0, 1]. So if arm k was last evaluated at round s,
    U_k(t) - U_k(s) <= o_k (R(t) - R(s)) <= max(0, R(t) - R(s)),
that is U_k(t) <= max(A_k, B_k + R(t)) with A_k = U_k(s) and B_k = U_k(s) - R(s), two keys that
change only when arm k is evaluated. The argument needs o_k <= 1 and d non-increasing, both from the
known variances: with estimated variances every o_j and d move every round and no such bound holds, so
those runs keep the plain kernel.

Two tournament trees (`_set`, `_others`) over A and B, one leaf per state (below), give the largest bound
in O(1) and re-key a state in O(log K). A round:
  1. R and d from running sums of o_j T_j and o_j S_j, kept in double-double (each arm's rounded
     products added once and subtracted exactly when the arm is pulled again: error about one unit in
     the last place of the sums, without a pass);
  2. the arm pulled last round is evaluated and re-keyed;
  3. while the arm of the largest bound is not yet evaluated this round, evaluate it and re-key it.
     When it is, it is the argmax unless another arm's bound (the largest over the tree less that
     leaf: its siblings on the path to the root) comes within the slack; that arm is evaluated too;
  4. a near tie (two evaluated arms within the slack) lists every arm whose bound reaches it
     (`_ties`). Arms with the same pulls and the same mean have the same index to the bit in the
     plain kernel too, so a tie among those is the plain kernel's tie, drawn by its rule. Anything
     else is decided as the plain kernel decides it: its sums in its own order, its index for each
     listed arm, its tie rule.
The slack (`SLACK` relative to the index's terms) covers the rounding by which this kernel's R, d and
index differ from the plain kernel's (a few units in the last place of sums of K terms: K u, under
1e-10 for K below 1e6) with room to spare, so outside a near tie the argmax here is the plain
kernel's, strictly. `rue.argmax_path` keeps K at or above MAX_K on the plain kernel.
The plain kernel stays the reference: tests compare the pulls run by run.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from .rue_index import index as _index
from .rue_recommend import recommend
from .sources import decided, live_source, n_arms, pick_index, reward, tie_uniform, top

#: the slack, relative to the size of the index's terms: far above the rounding that separates this
#: kernel's index from the plain kernel's (K units in the last place, K < MAX_K), far below any gap
#: that matters (arms within it are listed and decided as the plain kernel decides them)
SLACK = 1e-9
MAX_K = 10 ** 6
#: the per-run counters `stats` gets: exact index evaluations, tree re-keys (each walks log2 K levels of
#: both trees) and rounds decided by the plain kernel's sums, all after round 2K
EVALUATIONS, REKEYS, PLAIN_ROUNDS = 0, 1, 2


@njit(cache=True, inline="always")
def _set(W, j, a, b, P):
    """Leaf j's keys become (a, b): re-play both tournaments on its path to the root, up to the first
    node whose winners do not change. Row i of W holds the largest A and B keys under node i and their
    leaves (as floats: one 32-byte row a node, a node's two children in one 64-byte cache line;
    children 2i and 2i + 1, leaves at P + j). The winners climbing the path stay in registers; each
    level loads only the sibling's row."""
    i = j + P
    va = a
    vb = b
    ia = float(j)
    ib = float(j)
    W[i, 0] = va
    W[i, 1] = vb
    while i > 1:
        s = i ^ 1
        left = s > i                    # this node is the left child: it wins ties, as in `_build`
        xa = W[s, 0]                    # every load first, unconditionally, so the choices below
        xb = W[s, 1]                    # compile to selects (a conditional load would be a branch,
        ja = W[s, 2]                    # mispredicted half the time)
        jb = W[s, 3]
        sa = xa > va if left else xa >= va
        sb = xb > vb if left else xb >= vb
        ia = ja if sa else ia
        va = xa if sa else va
        ib = jb if sb else ib
        vb = xb if sb else vb
        i >>= 1
        if va == W[i, 0] and ia == W[i, 2] and vb == W[i, 1] and ib == W[i, 3]:
            return                      # this node, and so every one above it, is as it was
        W[i, 0] = va
        W[i, 1] = vb
        W[i, 2] = ia
        W[i, 3] = ib


@njit(cache=True, inline="always")
def _top(W, R):
    """The leaf of the largest bound max(A, B + R)."""
    return int(W[1, 2]) if W[1, 0] >= W[1, 1] + R else int(W[1, 3])


@njit(cache=True, inline="always")
def _others(W, j, R, P):
    """The largest bound max(A, B + R) over every leaf but j (the winners of the siblings on j's path),
    and its leaf."""
    best = -np.inf
    arm = -1.0
    i = j + P
    while i > 1:
        s = i ^ 1
        x = W[s, 0]                     # loads first, then selects (see `_set`)
        y = W[s, 1] + R
        ja = W[s, 2]
        jb = W[s, 3]
        up = x > best
        arm = ja if up else arm
        best = x if up else best
        up = y > best
        arm = jb if up else arm
        best = y if up else best
        i >>= 1
    return best, int(arm)


@njit(cache=True)
def _build(W, P):
    for j in range(P):
        W[P + j, 2] = j
        W[P + j, 3] = j
    for i in range(P - 1, 0, -1):
        for q in range(2):
            w = 2 * i if W[2 * i, q] >= W[2 * i + 1, q] else 2 * i + 1
            W[i, q] = W[w, q]
            W[i, q + 2] = W[w, q + 2]


@njit(cache=True, inline="always")
def _add(h, lo, x):
    """(h, lo) + x in double-double (Knuth's two-sum: the rounding error of h + x, exactly)."""
    s = h + x
    z = s - h
    return s, lo + ((h - (s - z)) + (x - z))


@njit(cache=True, inline="always")
def _rekey(j, u, R, W, P):
    _set(W, j, u, u - R, P)


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _plain_sums(T, S, omw, s2):
    """R and d as the plain kernel forms them: its sums, in its order, by its expressions."""
    den = 0.0
    num = 0.0
    for j in range(T.shape[0]):
        o = omw[j]
        den += o * T[j]
        num += o * S[j]
    inv = 1.0 / den
    return num * inv, s2 * inv


# States. Arms with the same pulls and the same reward sum have the same index to the bit, in the plain
# kernel too; with Bernoulli rewards dozens of them tie at the top at K = 1000. So the trees hold states,
# not arms: a state's slot keeps its (T, S, rbar, o), its index and the round it was evaluated (`CT`,
# `CS`, `CR`, `CO`, `CV`, `CST` columns of C), its arms in index order (a linked list: LINK's `NXT` and
# `PRV` columns, CI's `COUNT` and `HEAD`), and a hash table finds a state's slot by (T, S) (linear
# probing). With Gaussian rewards no two states meet, and each arm keeps its own slot (no hashing).
CT, CS, CR, CO, CV, CST = 0, 1, 2, 3, 4, 5
COUNT, HEAD = 0, 1
CLS, NXT, PRV = 0, 1, 2


@njit(cache=True, inline="always")
def _home(T, S, mask):
    return (int(T) * 40503 + int(S) * 2654435761) & mask


@njit(cache=True)
def _find(H, C, T, S):
    """The slot of state (T, S), or -1."""
    mask = H.shape[0] - 1
    q = _home(T, S, mask)
    while H[q] >= 0:
        s = H[q]
        if C[s, CT] == T and C[s, CS] == S:
            return s
        q = (q + 1) & mask
    return -1


@njit(cache=True)
def _insert(H, C, s):
    mask = H.shape[0] - 1
    q = _home(C[s, CT], C[s, CS], mask)
    while H[q] >= 0:
        q = (q + 1) & mask
    H[q] = s


@njit(cache=True)
def _delete(H, C, s):
    """Take slot s out of the table (Knuth's deletion for linear probing: later entries of the run
    move back where their home allows)."""
    mask = H.shape[0] - 1
    q = _home(C[s, CT], C[s, CS], mask)
    while H[q] != s:
        q = (q + 1) & mask
    H[q] = -1
    j = q
    while True:
        j = (j + 1) & mask
        if H[j] < 0:
            return
        h = _home(C[H[j], CT], C[H[j], CS], mask)
        if (j > q and (h <= q or h > j)) or (j < q and h <= q and h > j):
            H[q] = H[j]
            H[j] = -1
            q = j


@njit(cache=True, inline="always")
def _join(CI, LINK, s, k):
    """Arm k joins slot s's list, in index order."""
    LINK[k, CLS] = s
    h = CI[s, HEAD]
    if h < 0 or h > k:
        LINK[k, NXT] = h
        LINK[k, PRV] = -1
        if h >= 0:
            LINK[h, PRV] = k
        CI[s, HEAD] = k
    else:
        a = h
        while LINK[a, NXT] >= 0 and LINK[a, NXT] < k:
            a = LINK[a, NXT]
        b = LINK[a, NXT]
        LINK[k, NXT] = b
        LINK[k, PRV] = a
        LINK[a, NXT] = k
        if b >= 0:
            LINK[b, PRV] = k
    CI[s, COUNT] += 1


@njit(cache=True, inline="always")
def _leave(CI, LINK, k):
    s = LINK[k, CLS]
    a = LINK[k, PRV]
    b = LINK[k, NXT]
    if a >= 0:
        LINK[a, NXT] = b
    else:
        CI[s, HEAD] = b
    if b >= 0:
        LINK[b, PRV] = a
    CI[s, COUNT] -= 1
    return s


@njit(cache=True, inline="always")
def _member(CI, LINK, s, q):
    """Slot s's q-th arm in index order."""
    k = CI[s, HEAD]
    for _ in range(q):
        k = LINK[k, NXT]
    return k


@njit(cache=True, inline="always")
def _evaluate(C, s, t, R, c, s02, d):
    u = _index(C[s, CO], R, C[s, CR], c, s02, d)
    C[s, CV] = u
    C[s, CST] = t
    return u


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _ties(src, i, t, T, S, omw, C, CI, LINK, W, P, listed, cand, R, d, c, s02, s2, eta, work):
    """A near tie: every state whose bound reaches the best evaluated index less the slack is taken
    out of the trees and evaluated; the plain kernel's decision among the arms of those within the
    slack. Returns the arm and the number of states listed (`listed[:m]`, for re-keying)."""
    m = 0
    best = -np.inf
    while True:                                 # the trees' tops, taken out one by one
        a = W[1, 0]
        b = W[1, 1] + R
        s = int(W[1, 2]) if a >= b else int(W[1, 3])
        top = a if a >= b else b
        if top < best - 3.0 * eta or top == -np.inf:
            break
        if C[s, CST] != t:
            _evaluate(C, s, t, R, c, s02, d)
            work[EVALUATIONS] += 1.0
        _set(W, s, -np.inf, -np.inf, P)
        work[REKEYS] += 1.0
        listed[m] = s
        m += 1
        best = max(best, C[s, CV])
    n_s = 0                                     # the states within 2 eta of the best, first in `listed`
    same = True
    for q in range(m):
        s = listed[q]
        if C[s, CV] >= best - 2.0 * eta:
            listed[q] = listed[n_s]
            listed[n_s] = s
            if C[s, CT] != C[listed[0], CT] or C[s, CR] != C[listed[0], CR]:
                same = False
            n_s += 1
    if not same:                                # the plain kernel's values of those states
        work[PLAIN_ROUNDS] += 1.0
        r0, dp = _plain_sums(T, S, omw, s2)
        top = -np.inf
        for q in range(n_s):
            s = listed[q]
            u = _index(C[s, CO], r0, C[s, CR], c, s02, dp)
            if u > top:
                top = u
        n_c = 0
        for q in range(n_s):                    # the arms of the states at the top, in index order
            s = listed[q]
            if _index(C[s, CO], r0, C[s, CR], c, s02, dp) == top:
                n_c = _merge(CI, LINK, s, cand, n_c)
    else:
        n_c = 0
        for q in range(n_s):
            n_c = _merge(CI, LINK, listed[q], cand, n_c)
    pick = cand[0]
    if n_c > 1:                                 # the plain tie rule (`pick_index`) over the same arms
        pick = cand[min(int(tie_uniform(src, i) * n_c), n_c - 1)]
    return pick, m


@njit(cache=True, inline="always")
def _merge(CI, LINK, s, cand, n):
    """Slot s's arms into cand[:n], kept in index order (insertion; the lists here are short)."""
    k = CI[s, HEAD]
    while k >= 0:
        p = n
        while p > 0 and cand[p - 1] > k:
            cand[p] = cand[p - 1]
            p -= 1
        cand[p] = k
        n += 1
        k = LINK[k, NXT]
    return n


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _run(src, i, n, s02, s2, c, merge, rec, pulls, sums, counters):
    """Run i of `src` (known variances), as `rue._block` with mode 'known'; merge: arms of one state
    share a slot (Bernoulli rewards); counters: gets its counts (`EVALUATIONS`, ...)."""
    work = np.zeros(3)                # counted here, in memory the kernel owns, and copied out at the end
    K = n_arms(src)
    P = 1
    while P < K:
        P *= 2
    HS = 4 * P
    T = np.zeros((K, 1))
    S = np.zeros((K, 1))
    omw = np.empty((K, 1))
    Tv = T[:, 0]
    Sv = S[:, 0]
    ov = omw[:, 0]
    cd = np.zeros(K)                  # each arm's rounded o_j T_j and o_j S_j, as added to the sums
    cn = np.zeros(K)
    C = np.zeros((K, 6))              # the states' slots (`CT`, ...)
    CI = np.full((K, 2), -1, np.int64)
    LINK = np.full((K, 3), -1, np.int64)
    H = np.full(HS if merge else 1, -1, np.int64)
    free = np.empty(K, np.int64)      # unused slots, a stack
    nfree = 0
    W = np.full((2 * P, 4), -np.inf)  # the trees (`_set`)
    listed = np.empty(2 * K, np.int64)
    cand = np.empty(K, np.int64)
    dh = dl = nh = nl = 0.0
    big = 0.0                         # the largest |reward| so far: bounds |rbar_j| and |R|
    wide = 0.0                        # c (sqrt(s02 + d) + d / (2 sqrt(s02))) at round 2K: d only shrinks
    pick = 0
    fresh = -1                        # the slot of a state new last round: to be evaluated
    for t in range(n):
        if t < 2 * K:
            pick = t % K
        elif t == 2 * K:                  # the first round: every arm, the plain kernel's way
            for j in range(K):
                cd[j] = ov[j] * Tv[j]
                cn[j] = ov[j] * Sv[j]
                dh, dl = _add(dh, dl, cd[j])
                nh, nl = _add(nh, nl, cn[j])
            r0, dp = _plain_sums(Tv, Sv, ov, s2)
            first = np.empty(K)           # every index, and the plain kernel's argmax and tie rule on them
            for j in range(K):
                first[j] = _index(ov[j], r0, Sv[j] / Tv[j], c, s02, dp)
            pick, best, cnt = top(first)
            if cnt > 1:
                pick = pick_index(first, best, cnt, tie_uniform(src, i))
            inv = 1.0 / (dh + dl)
            R = (nh + nl) * inv
            d = s2 * inv
            wide = c * (math.sqrt(s02 + d) + 0.5 * d / math.sqrt(s02))
            used = 0
            for j in range(K):            # the states, in arm order (so each list is in index order)
                s = _find(H, C, Tv[j], Sv[j]) if merge else -1
                if s < 0:
                    s = used
                    used += 1
                    C[s, CT] = Tv[j]
                    C[s, CS] = Sv[j]
                    C[s, CR] = Sv[j] / Tv[j]
                    C[s, CO] = ov[j]
                    CI[s, COUNT] = 0
                    if merge:
                        _insert(H, C, s)
                    u = _evaluate(C, s, t, R, c, s02, d)
                    W[P + s, 0] = u
                    W[P + s, 1] = u - R
                _join(CI, LINK, s, j)
            for s in range(K - 1, used - 1, -1):
                free[nfree] = s
                nfree += 1
            _build(W, P)
            decided(src)
        else:
            inv = 1.0 / (dh + dl)
            R = (nh + nl) * inv
            d = s2 * inv
            eta = SLACK * (2.0 * big + abs(R) + wide)
            if fresh >= 0:
                _rekey(fresh, _evaluate(C, fresh, t, R, c, s02, d), R, W, P)
                work[EVALUATIONS] += 1.0
                work[REKEYS] += 1.0
            while True:
                s = _top(W, R)
                if C[s, CST] != t:        # the largest bound is not an index yet: evaluate it
                    _rekey(s, _evaluate(C, s, t, R, c, s02, d), R, W, P)
                    work[EVALUATIONS] += 1.0
                    work[REKEYS] += 1.0
                    continue
                second, q = _others(W, s, R, P)
                if second < C[s, CV] - 3.0 * eta:
                    # every other bound is below this state's index: its arms are the plain argmax (ties)
                    pick = CI[s, HEAD]
                    if CI[s, COUNT] > 1:
                        pick = _member(CI, LINK, s, min(int(tie_uniform(src, i) * CI[s, COUNT]),
                                                        CI[s, COUNT] - 1))
                    break
                if C[q, CST] != t:
                    _rekey(q, _evaluate(C, q, t, R, c, s02, d), R, W, P)
                    work[EVALUATIONS] += 1.0
                    work[REKEYS] += 1.0
                    continue
                pick, m = _ties(src, i, t, Tv, Sv, ov, C, CI, LINK, W, P, listed, cand, R, d, c, s02, s2,
                                eta, work)
                for q in range(m):        # back into the trees, keyed on their indices now
                    _rekey(listed[q], C[listed[q], CV], R, W, P)
                    work[REKEYS] += 1.0
                break
            decided(src)
        k = pick
        r = reward(src, i, k)
        big = max(big, abs(r))
        Tv[k] += 1.0
        Sv[k] += r
        ov[k] = s2 / (Tv[k] * s02 + s2)
        if t >= 2 * K:                    # the sums: the arm's old products out, its new ones in
            dh, dl = _add(dh, dl, -cd[k])
            nh, nl = _add(nh, nl, -cn[k])
            cd[k] = ov[k] * Tv[k]
            cn[k] = ov[k] * Sv[k]
            dh, dl = _add(dh, dl, cd[k])
            nh, nl = _add(nh, nl, cn[k])
            # the arm's new state: a slot that holds it already, or its old slot if it left it empty,
            # or a free one; a new state is evaluated next round
            old = _leave(CI, LINK, k)
            s = _find(H, C, Tv[k], Sv[k]) if merge else -1
            fresh = -1
            if s >= 0:
                _join(CI, LINK, s, k)
                if CI[old, COUNT] == 0:   # the old state is gone
                    _delete(H, C, old)
                    _set(W, old, -np.inf, -np.inf, P)
                    work[REKEYS] += 1.0
                    free[nfree] = old
                    nfree += 1
            else:
                if CI[old, COUNT] == 0:
                    s = old
                    if merge:
                        _delete(H, C, old)
                else:
                    nfree -= 1
                    s = free[nfree]
                C[s, CT] = Tv[k]
                C[s, CS] = Sv[k]
                C[s, CR] = Sv[k] / Tv[k]
                C[s, CO] = ov[k]
                C[s, CST] = -1.0
                CI[s, COUNT] = 0
                CI[s, HEAD] = -1
                if merge:
                    _insert(H, C, s)
                _join(CI, LINK, s, k)
                fresh = s
    m = np.empty(K)
    recommend(src, i, 0, T, S, omw, s02, s2, m, rec, pulls, sums)
    counters[:] = work


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def _batch(means, n, gaussian, nu, reward_seeds, seeds, sums, s0_known, s_known, deg, stats):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    src = live_source(means, gaussian, nu, reward_seeds, seeds, None)
    c = math.sqrt(deg * math.log(n))
    for i in prange(R):
        _run(src, i, n, s0_known, s_known, c, not gaussian, rec, pulls, sums, stats[i])
    return rec, pulls
