"""Train a simple masked policy on ``minodice/Solo-v1`` with numpy only, then score it.

The policy is linear-softmax over the shared observation vector
(`minodice.envs.encoding`), with illegal actions masked out of the softmax;
it learns by REINFORCE with a running baseline, against the opponents given
(default: one greedy and two random bots), for a few minutes on one CPU core.
Then it plays evaluation games against three ``random`` bots and against
three ``greedy`` bots and prints its average score (and the untrained
policy's, for reference).

    python examples/train_masked_policy.py                      # about 3 minutes
    python examples/train_masked_policy.py --minutes 10 --save policy.npz
    python examples/train_masked_policy.py --episodes 2 --eval-games 1   # a smoke run

No torch needed: the point is a baseline a researcher can read in one sitting.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import gymnasium as gym
import numpy as np

import minodice.envs.gymnasium  # noqa: F401 - registers minodice/Solo-v1
from minodice.envs import encoding as E


class MaskedLinearPolicy:
    """Softmax over ``W @ features + b`` restricted to the legal actions."""

    def __init__(self, obs_size: int, scale: np.ndarray, rng: np.random.Generator) -> None:
        self.W = np.zeros((E.NUM_ACTIONS, obs_size + 1))
        self.scale = scale
        self.rng = rng

    def features(self, obs: np.ndarray) -> np.ndarray:
        """The observation scaled to about [-1, 1], plus a constant 1."""
        return np.append(obs / self.scale, 1.0)

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Action probabilities: the softmax of the logits over the legal actions only."""
        logits = self.W @ x
        logits = np.where(mask.astype(bool), logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, obs: np.ndarray, mask: np.ndarray, greedy: bool = False) -> tuple[int, np.ndarray, np.ndarray]:
        """An action (sampled, or the most likely one), with the features and probabilities used."""
        x = self.features(obs)
        p = self.probabilities(x, mask)
        a = int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))
        return a, x, p

    def save(self, path: str) -> None:
        np.savez(path, W=self.W, scale=self.scale)


def run_episode(env: gym.Env, policy: MaskedLinearPolicy, seed: int | None, greedy: bool = False):
    """Play one game; the (features, probabilities, action, reward) of each agent step, and the total."""
    obs, info = env.reset(seed=seed)
    steps = []
    total = 0.0
    done = False
    while not done:
        a, x, p = policy.act(obs, info["action_mask"], greedy)
        obs, reward, done, _, info = env.step(a)
        steps.append((x, p, a, reward))
        total += reward
    return steps, total


def train(args: argparse.Namespace) -> MaskedLinearPolicy:
    """REINFORCE with a running-mean baseline, until the time or episode budget runs out."""
    rng = np.random.default_rng(args.seed)
    env = gym.make("minodice/Solo-v1", opponents=tuple(args.opponents))
    low, high = E.observation_bounds(len(args.opponents) + 1)
    scale = np.maximum(np.maximum(np.abs(low), np.abs(high)), 1.0)
    scale[-(len(args.opponents) + 1):] = 500.0  # scores: a few hundred points
    policy = MaskedLinearPolicy(env.observation_space.shape[0], scale, rng)
    baseline, spread = 0.0, 100.0
    deadline = time.monotonic() + 60 * args.minutes
    episode = 0
    recent: list[float] = []
    while episode < args.episodes and time.monotonic() < deadline:
        steps, total = run_episode(env, policy, seed=args.seed * 1_000_003 + episode)
        rewards = np.array([r for *_, r in steps])
        to_go = np.cumsum(rewards[::-1])[::-1]  # points still to come from each decision
        for (x, p, a, _), g in zip(steps, to_go):
            advantage = (g - baseline) / spread
            grad = -p[:, None] * x[None, :]  # d log softmax / dW, legal rows only (p = 0 elsewhere)
            grad[a] += x
            policy.W += args.lr * advantage * grad
        baseline += 0.05 * (to_go.mean() - baseline)
        spread += 0.05 * (to_go.std() + 1.0 - spread)
        recent.append(total)
        episode += 1
        if episode % args.report_every == 0:
            print(f"episode {episode:5d}: mean score of the last {len(recent)} = {np.mean(recent):7.1f}")
            recent = []
    env.close()
    print(f"trained for {episode} episodes")
    return policy


def evaluate(policy: MaskedLinearPolicy, opponent: str, games: int, seed: int) -> float:
    """The policy's mean score (most likely legal action) in `games` games against three `opponent`s."""
    env = gym.make("minodice/Solo-v1", opponents=(opponent,) * 3)
    scores = [run_episode(env, policy, seed=seed + g, greedy=True)[1] for g in range(games)]
    env.close()
    return float(np.mean(scores))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=3.0, help="training time budget (default 3)")
    parser.add_argument("--episodes", type=int, default=10**9, help="training episode budget")
    parser.add_argument("--opponents", nargs="+", default=["greedy", "random", "random"],
                        help="bot specs of the training opponents (2 to 5)")
    parser.add_argument("--lr", type=float, default=0.01, help="learning rate (default 0.01)")
    parser.add_argument("--eval-games", type=int, default=100, help="evaluation games per opponent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--report-every", type=int, default=100)
    parser.add_argument("--save", help="write the weights to this .npz file")
    args = parser.parse_args(argv)
    if not 2 <= len(args.opponents) <= 5:
        parser.error("give 2 to 5 opponents")
    if args.minutes <= 0 or args.episodes <= 0 or args.eval_games <= 0:
        parser.error("--minutes, --episodes and --eval-games must be positive")

    start = time.monotonic()
    policy = train(args)
    print(f"training took {time.monotonic() - start:.0f} s")
    untrained = MaskedLinearPolicy(policy.W.shape[1] - 1, policy.scale, np.random.default_rng(0))
    eval_seed = 10**9  # evaluation games never seen in training
    print(f"\nmean score over {args.eval_games} games (3 opponents, most likely legal action):")
    for opponent in ("random", "greedy"):
        trained = evaluate(policy, opponent, args.eval_games, eval_seed)
        before = evaluate(untrained, opponent, args.eval_games, eval_seed)
        print(f"  vs 3 {opponent:6}: trained {trained:7.1f}   untrained {before:7.1f}")
    if args.save:
        policy.save(args.save)
        print(f"weights written to {args.save}")


if __name__ == "__main__":
    main()
