// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A price feed with the AggregatorV3 interface whose rounds a test writes: each `setRound` starts a
/// new round with its answer and `updatedAt`, so the reader sees fresh, stale, jumping or negative data.
contract MockAggregatorV3 {
    struct Round {
        int256 answer;
        uint256 startedAt;
        uint256 updatedAt;
    }

    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;
    uint80 public latestRound;
    mapping(uint80 => Round) private rounds;

    constructor(uint8 decimals_, string memory description_) {
        decimals = decimals_;
        description = description_;
    }

    function setRound(int256 answer, uint256 updatedAt) external {
        latestRound += 1;
        rounds[latestRound] = Round(answer, updatedAt, updatedAt);
    }

    function getRoundData(uint80 roundId)
        public
        view
        returns (uint80, int256, uint256, uint256, uint80)
    {
        Round memory round = rounds[roundId];
        require(round.updatedAt > 0, "No data present");
        return (roundId, round.answer, round.startedAt, round.updatedAt, roundId);
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return getRoundData(latestRound);
    }
}
