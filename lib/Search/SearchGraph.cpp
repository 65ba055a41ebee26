//===- SearchGraph.cpp - states, moves and measurements of one search -----===//

#include "optiml/Search/SearchGraph.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace optiml;

SearchGraph::SearchGraph(Expander &E, Reward R) : E(E), R(R) {
  addNode(E.rootHash(), {}, -1, -1);
}

int SearchGraph::find(llvm::StringRef Hash) const {
  auto It = ByHash.find(Hash);
  return It == ByHash.end() ? -1 : It->second;
}

int SearchGraph::addNode(std::string Hash, Trace Steps, int Parent,
                         int ParentEdge) {
  int N = Nodes.size();
  SearchNode Node;
  Node.Hash = std::move(Hash);
  Node.Steps = std::move(Steps);
  Node.Parent = Parent;
  Node.ParentEdge = ParentEdge;
  ByHash[Node.Hash] = N;
  Nodes.push_back(std::move(Node));
  return N;
}

bool SearchGraph::loadActions(int N) {
  SearchNode &Node = Nodes[N];
  if (Node.ActionsLoaded)
    return !Node.Edges.empty();
  if (!Node.live())
    return false;
  Node.ActionsLoaded = true;
  // A twin's machine code was measured at another state, whose moves are
  // explored there: from here they would mostly build that state's
  // candidates again (transpose's deep states were 21 twins in 32).
  if (!Node.Result.TwinOf.empty() && find(Node.Result.TwinOf) >= 0) {
    Node.ActionsError = "the same machine code as state " +
                        Node.Result.TwinOf.substr(0, 12) +
                        ", whose moves are explored there";
    return false;
  }
  auto Moves = E.actions({Node.Steps, Node.Hash, Node.Result});
  if (!Moves) {
    ErrorSummary Why = summarize(Moves.takeError());
    Node.ActionsError = Why.Message;
    if (Why.Kind == ErrorKind::Internal && InternalError.empty())
      InternalError = Why.Message;
    return false;
  }
  demoteInert(*Moves);
  double Sum = 0;
  for (const ScoredAction &A : *Moves)
    Sum += std::max(0.0, A.Prior);
  for (ScoredAction &A : *Moves) {
    SearchEdge Edge;
    Edge.Prior = Sum > 0 ? std::max(0.0, A.Prior) / Sum : 1.0 / Moves->size();
    Edge.Move = std::move(A);
    Nodes[N].Edges.push_back(std::move(Edge));
  }
  std::stable_sort(Nodes[N].Edges.begin(), Nodes[N].Edges.end(),
                   [](const SearchEdge &A, const SearchEdge &B) {
                     return A.Prior > B.Prior;
                   });
  addRetunes(N);
  return !Nodes[N].Edges.empty();
}

bool SearchGraph::helps(int From, int To) const {
  return Nodes[From].live() && Nodes[To].live() &&
         R.regresses(Nodes[From].Result, Nodes[To].Result);
}

bool SearchGraph::pays(int From, int To) const {
  constexpr double MinGain = 1.1;
  std::optional<double> A = Nodes[From].Result.gain(),
                        B = Nodes[To].Result.gain();
  return helps(From, To) && A && B && *A > 0 && *B / *A >= MinGain;
}

/// Whether \p To differs from \p From only in parameters whose values are
/// numbers on both sides: a factor, a tile, a thread count.
static bool changesOnlyNumbers(const Step &From, const Step &To) {
  auto Numeric = [](llvm::StringRef V) {
    int64_t Unused;
    return !V.getAsInteger(10, Unused);
  };
  auto Same = [&](const Step &A, const Step &B) {
    return llvm::all_of(A.Params.items(), [&](const auto &Item) {
      llvm::StringRef Other = B.Params.get(Item.first);
      return Other == Item.second || (Numeric(Other) && Numeric(Item.second));
    });
  };
  return Same(From, To) && Same(To, From);
}

/// A step that helped says its transform does something here, and its
/// other parameter values are then the best-founded moves there are; they
/// are tried before anything below: at budget 10 on linear_nt, MCTS and
/// greedy took tensor-cores(tf32, tile 64) for 29x and spent the rest on
/// its children, while random's seeds found tile 128 (49x) at the root,
/// which MCTS widens only slowly and greedy never returns to. A step that
/// helped only a little counts too: on median3x3, coarsen(y, 4) gained 4%
/// and coarsen(y, 2) 3.1x, a value neither strategy tried at the prior a
/// third of the default's that parameter values get, since both go below
/// the 4% first. For such a step, only values of its numbers are retuned:
/// softmax_block_row's fast-math (all operations, 7%) had its other value
/// (exp and log only, 3%) take the place of unrolling (1.41x with it) in
/// the round below it. They come right after the state's likeliest own move
/// (its counters are news the step's neighbourhood is not), at its prior, in
/// the order the expander gives them.
void SearchGraph::addRetunes(int N) {
  SearchNode &Node = Nodes[N];
  if (Node.Parent < 0 || !helps(Node.Parent, N))
    return;
  int Base = Node.Parent;
  bool Paid = pays(Base, N);
  const Step &Made = Nodes[Base].Edges[Node.ParentEdge].Move.Action;
  std::vector<Step> Others = E.retunes(Made);
  if (!Paid)
    llvm::erase_if(Others, [&](const Step &Other) {
      return !changesOnlyNumbers(Made, Other);
    });
  if (Others.empty())
    return;
  // The edges are sorted: the first holds the top prior.
  double Top = Node.Edges.empty() ? 1 : Node.Edges.front().Prior;
  std::vector<SearchEdge> Edges;
  if (!Node.Edges.empty())
    Edges.push_back(std::move(Node.Edges.front()));
  for (Step &S : Others) {
    SearchEdge Edge;
    Edge.Move = {std::move(S), Top,
                 "another value of " + Made.str() + ", which " +
                     (Paid ? "paid" : "helped a little")};
    Edge.Prior = Top;
    Edge.Base = Base;
    Edges.push_back(std::move(Edge));
  }
  for (unsigned I = 1; I < Node.Edges.size(); ++I)
    Edges.push_back(std::move(Node.Edges[I]));
  normalizePriors(Edges); // As loadActions gives them.
  Node.Edges = std::move(Edges);
}

double SearchGraph::effectivePrior(int N, unsigned Edge) const {
  const SearchEdge &E = Nodes[N].Edges[Edge];
  return E.Prior * Failures.priorScale(E.Move.Action.Transform);
}

std::optional<unsigned> SearchGraph::nextUnexpanded(int N) const {
  std::optional<unsigned> Best;
  for (unsigned I = 0; I < Nodes[N].Edges.size(); ++I)
    if (Nodes[N].Edges[I].Kind == EdgeKind::Unexpanded &&
        (!Best || effectivePrior(N, I) > effectivePrior(N, *Best)))
      Best = I;
  return Best;
}

unsigned SearchGraph::unexpandedCount(int N) const {
  return std::count_if(
      Nodes[N].Edges.begin(), Nodes[N].Edges.end(),
      [](const SearchEdge &E) { return E.Kind == EdgeKind::Unexpanded; });
}

bool SearchGraph::reaches(int From, int To) const {
  std::vector<int> Stack = {From};
  std::vector<bool> Seen(Nodes.size());
  while (!Stack.empty()) {
    int N = Stack.back();
    Stack.pop_back();
    if (N == To)
      return true;
    if (Seen[N])
      continue;
    Seen[N] = true;
    for (const SearchEdge &E : Nodes[N].Edges)
      if (E.Kind == EdgeKind::Child)
        Stack.push_back(E.Child);
  }
  return false;
}

unsigned SearchGraph::edgeFor(int N, const ScoredAction &Move) {
  std::string Spelling = Move.Action.str();
  for (unsigned I = 0; I < Nodes[N].Edges.size(); ++I)
    if (Nodes[N].Edges[I].Move.Action.str() == Spelling)
      return I;
  // Not among its moves (a retune of a retune): added without a prior, so
  // only the retune that asked for it proposes it.
  SearchEdge Edge;
  Edge.Move = Move;
  Nodes[N].Edges.push_back(std::move(Edge));
  return Nodes[N].Edges.size() - 1;
}

ExpandOutcome SearchGraph::expandRetune(int N, unsigned Edge) {
  int Base = Nodes[N].Edges[Edge].Base;
  unsigned At = edgeFor(Base, Nodes[N].Edges[Edge].Move);
  // A node made now is new to the strategy, which issues it; one made
  // before was issued when it was made.
  bool Fresh = Nodes[Base].Edges[At].Kind == EdgeKind::Unexpanded &&
               expand(Base, At).Kind == ExpandKind::New;
  SearchEdge &There = Nodes[Base].Edges[At];
  SearchEdge &Here = Nodes[N].Edges[Edge];
  // The report tells the move by its edge from the base: say why it ran.
  if (Fresh)
    There.Move.Motivation =
        Here.Move.Motivation + (There.Move.Motivation.empty()
                                    ? ""
                                    : " (" + There.Move.Motivation + ")");
  Here.Kind = There.Kind;
  Here.Error = There.Error;
  if (There.Kind == EdgeKind::ApplyFailed)
    return {ExpandKind::ApplyFailed};
  if (There.Kind != EdgeKind::Child || There.Child == N ||
      reaches(There.Child, N)) {
    Here.Kind = EdgeKind::Redundant;
    return {ExpandKind::Redundant};
  }
  Here.Child = There.Child;
  return {Fresh ? ExpandKind::New : ExpandKind::Transposition, Here.Child};
}

ExpandOutcome SearchGraph::expand(int N, unsigned Edge) {
  if (Nodes[N].Edges[Edge].Base >= 0)
    return expandRetune(N, Edge);
  Trace From = Nodes[N].Steps;
  Step Move = Nodes[N].Edges[Edge].Move.Action;
  auto Applied = E.apply(From, Nodes[N].Hash, Move);
  SearchEdge &Out = Nodes[N].Edges[Edge];
  if (!Applied) {
    Out.Kind = EdgeKind::ApplyFailed;
    Out.Error = llvm::toString(Applied.takeError());
    Failures.recordFailure(Move.Transform);
    return {ExpandKind::ApplyFailed};
  }
  int Existing = find(Applied->Hash);
  // A move back to this state or above it would make the graph cyclic.
  if (Existing == N || (Existing >= 0 && reaches(Existing, N))) {
    Out.Kind = EdgeKind::Redundant;
    return {ExpandKind::Redundant};
  }
  Out.Kind = EdgeKind::Child;
  if (Existing >= 0) {
    Out.Child = Existing;
    return {ExpandKind::Transposition, Existing};
  }
  From.insert(From.end(), Applied->Steps.begin(), Applied->Steps.end());
  Out.Child = addNode(std::move(Applied->Hash), std::move(From), N, Edge);
  return {ExpandKind::New, Out.Child};
}

bool SearchGraph::exhausted(int N) {
  SearchNode &Node = Nodes[N];
  if (Node.Exhausted || Node.State == NodeState::Failed)
    return true;
  if (Node.State == NodeState::Pending)
    return false;
  loadActions(N);
  for (const SearchEdge &E : Nodes[N].Edges) {
    if (E.Kind == EdgeKind::Unexpanded)
      return false;
    if (E.Kind == EdgeKind::Child && !exhausted(E.Child))
      return false;
  }
  Nodes[N].Exhausted = true;
  return true;
}

/// A retune's candidate is its base state's child: its value backs up
/// through the base, not through the state whose step paid, which a worse
/// value tried in that step's place says nothing about (layernorm's lanes
/// 16 and grid=keep, 4.8x and 2.8x beside lanes 32's 7.5x, drew MCTS away
/// from lanes 32 to a 3.4x sibling). A path that does not pass the base
/// (the state was reached through a transposition) is left as it is.
static void throughBase(SearchPath &Path, const std::vector<SearchNode> &Nodes,
                        int Child) {
  if (Path.empty())
    return;
  auto [From, Edge] = Path.back();
  int Base = Nodes[From].Edges[Edge].Base;
  if (Base < 0)
    return;
  auto At =
      llvm::find_if(Path, [&](const auto &Step) { return Step.first == Base; });
  const std::vector<SearchEdge> &Edges = Nodes[Base].Edges;
  auto Into = llvm::find_if(Edges, [&](const SearchEdge &E) {
    return E.Kind == EdgeKind::Child && E.Child == Child;
  });
  if (At == Path.end() || Into == Edges.end())
    return;
  Path.erase(At, Path.end());
  Path.push_back({Base, unsigned(Into - Edges.begin())});
}

Candidate SearchGraph::issue(int N, SearchPath Path) {
  throughBase(Path, Nodes, N);
  Candidate C;
  C.Id = NextId++;
  C.Steps = Nodes[N].Steps;
  C.Hash = Nodes[N].Hash;
  if (Nodes[N].Parent >= 0) {
    const SearchNode &Parent = Nodes[Nodes[N].Parent];
    C.ParentHash = Parent.Hash;
    C.Move = Parent.Edges[Nodes[N].ParentEdge].Move.Action.Transform;
  }
  if (N == Root)
    RootIssued = true;
  InFlight F{N, std::move(Path)};
  setVirtual(F, +1);
  Pending[C.Id] = std::move(F);
  return C;
}

void SearchGraph::setVirtual(const InFlight &F, int Delta) {
  for (const auto &[N, Edge] : F.Path) {
    Nodes[N].Virtual += Delta;
    Nodes[N].Edges[Edge].Virtual += Delta;
  }
  Nodes[F.Node].Virtual += Delta;
}

void SearchGraph::backup(const InFlight &F, double Value) {
  auto Visit = [&](SearchNode &Node) {
    ++Node.Visits;
    Node.ValueSum += Value;
    Node.MaxValue = std::max(Node.MaxValue, Value);
  };
  for (const auto &[N, Edge] : F.Path) {
    Visit(Nodes[N]);
    ++Nodes[N].Edges[Edge].Visits;
  }
  Visit(Nodes[F.Node]);
}

int SearchGraph::record(const CandidateResult &Result) {
  auto It = Pending.find(Result.Id);
  if (It == Pending.end())
    return -1;
  InFlight F = std::move(It->second);
  Pending.erase(It);
  setVirtual(F, -1);
  int N = F.Node;
  SearchNode &Node = Nodes[N];
  Node.Result = Result.Result;
  const Measurement *Parent =
      Node.Parent >= 0 ? &Nodes[Node.Parent].Result : nullptr;
  const Measurement *RootResult = N == Root ? nullptr : &Nodes[Root].Result;
  auto Value = R.evaluate(Node.Result, Parent, RootResult);
  Node.State = Value ? NodeState::Measured : NodeState::Failed;
  if (Node.Parent >= 0) {
    // The move that made it: a chain's failure is the chain's, not its
    // last link's.
    const std::string &Move =
        Nodes[Node.Parent].Edges[Node.ParentEdge].Move.Action.Transform;
    if (Value)
      Failures.recordSuccess(Move);
    else
      Failures.recordFailure(Move);
  }
  if (Value) {
    Node.Reward = Value->total();
    MinReward = AnyReward ? std::min(MinReward, *Node.Reward) : *Node.Reward;
    MaxReward = AnyReward ? std::max(MaxReward, *Node.Reward) : *Node.Reward;
    AnyReward = true;
    backup(F, *Node.Reward);
  }
  noteResult(N, Result);
  noteInert(N);
  E.observe(Node.Steps, Node.Hash, Node.Result);
  return N;
}

void SearchGraph::noteInert(int N) {
  const SearchNode &Node = Nodes[N];
  if (Node.Parent < 0 || Node.Result.TwinOf != Nodes[Node.Parent].Hash)
    return;
  const SearchEdge &Made = Nodes[Node.Parent].Edges[Node.ParentEdge];
  Inert.insert(Made.Move.Action.str());
}

void SearchGraph::demoteInert(std::vector<ScoredAction> &Moves) const {
  // hoist of a loop the compiler hoists itself, launch-bounds that change
  // no register count: inert under the best state, they are inert again
  // one step further (transpose: 21 of 32 candidates were such twins).
  // Tried last rather than never: a later step can give them work.
  constexpr double Demotion = 0.05;
  for (ScoredAction &A : Moves)
    if (Inert.count(A.Action.str()))
      A.Prior *= Demotion;
}

void SearchGraph::noteResult(int N, const CandidateResult &Result) {
  const Measurement &M = Result.Result;
  if (M.Cached)
    ++Cached;
  else
    ++Evaluated;
  if (!M.TwinOf.empty())
    ++Twins;
  if (!M.ok())
    ++Failed;
  // Ranked by the objective's gain, which is the speedup under --objective
  // time.
  double Speedup = gainOf(N);
  if (Nodes[N].live() && Speedup > gainOf(Best))
    Best = N;
  HistoryPoint P;
  P.Evaluation = History.size() + 1;
  P.CandidateId = Result.Id;
  P.Hash = Nodes[N].Hash;
  P.Status = M.Status;
  P.Cached = M.Cached;
  P.TwinOf = M.TwinOf;
  P.Speedup = Speedup;
  P.BestSpeedup = std::max(1.0, gainOf(Best));
  History.push_back(std::move(P));
}

double SearchGraph::gainOf(int N) const {
  const Measurement &M = Nodes[N].Result;
  if (N == Root && M.ok())
    return 1.0;
  return M.effectiveGain();
}

double SearchGraph::normalize(double Reward) const {
  // The floor is the original's reward: a node no better than the
  // original is worth nothing to the search, however much worse the worst
  // regression was. With the worst as the floor, one 0.22x candidate made
  // the 1.00x ones look two thirds as good as a 2x one, and MCTS spent
  // row_moments' second batch under them (greedy found 6.1x there).
  double Floor = MinReward;
  if (const std::optional<double> &Original = Nodes[Root].Reward)
    Floor = std::max(Floor, *Original);
  if (!AnyReward || MaxReward <= Floor)
    return 0.5;
  return std::clamp((Reward - Floor) / (MaxReward - Floor), 0.0, 1.0);
}
