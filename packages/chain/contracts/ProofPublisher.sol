// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title Proof publisher
/// @notice Where NADI publishes each liabilities snapshot's Merkle sum roots and totals
/// (docs/transparency.md, "Publication"): the liabilities root with what it says the platform owes
/// in NADI and USDT, the rewards root of the epoch the snapshot closed with the NADI it paid, and the
/// chain block the reserves were read at. Only the owner (the server's hot wallet) publishes, and a
/// snapshot id is published once: nobody, the owner included, can rewrite or remove it afterwards.
contract ProofPublisher is Ownable {
    /// @notice The epoch of a snapshot taken before any epoch ended.
    uint256 public constant NO_EPOCH = type(uint256).max;

    struct Publication {
        /// @dev The epoch whose end the snapshot was taken at, or NO_EPOCH.
        uint256 epoch;
        /// @dev The block the reserves were read at.
        uint256 blockNumber;
        bytes32 liabilitiesRoot;
        /// @dev The liabilities root's sums, in base units (18 decimals).
        uint256 liabilitiesNadi;
        uint256 liabilitiesUsdt;
        /// @dev Zero when the snapshot carries no rewards root.
        bytes32 rewardsRoot;
        /// @dev The rewards root's sums added up, in NADI base units.
        uint256 rewardsTotal;
        /// @dev The block that published it; zero means not published.
        uint256 publishedBlock;
        uint256 publishedAt;
    }

    mapping(uint256 snapshotId => Publication) private _publications;
    /// @notice How many snapshots have been published.
    uint256 public publishedCount;
    /// @notice The snapshot id published last (zero before the first).
    uint256 public lastSnapshotId;

    event Published(
        uint256 indexed snapshotId,
        uint256 indexed epoch,
        uint256 blockNumber,
        bytes32 liabilitiesRoot,
        uint256 liabilitiesNadi,
        uint256 liabilitiesUsdt,
        bytes32 rewardsRoot,
        uint256 rewardsTotal
    );

    error AlreadyPublished(uint256 snapshotId);
    error EmptyRoot();

    /// @param publisher The account allowed to publish (the server's hot wallet); it owns the contract.
    constructor(address publisher) Ownable(publisher) {}

    /// @notice Publishes a snapshot's roots and totals, once per snapshot id.
    function publish(
        uint256 snapshotId,
        uint256 epoch,
        uint256 blockNumber,
        bytes32 liabilitiesRoot,
        uint256 liabilitiesNadi,
        uint256 liabilitiesUsdt,
        bytes32 rewardsRoot,
        uint256 rewardsTotal
    ) external onlyOwner {
        if (liabilitiesRoot == bytes32(0)) revert EmptyRoot();
        if (_publications[snapshotId].publishedBlock != 0) revert AlreadyPublished(snapshotId);
        _publications[snapshotId] = Publication({
            epoch: epoch,
            blockNumber: blockNumber,
            liabilitiesRoot: liabilitiesRoot,
            liabilitiesNadi: liabilitiesNadi,
            liabilitiesUsdt: liabilitiesUsdt,
            rewardsRoot: rewardsRoot,
            rewardsTotal: rewardsTotal,
            publishedBlock: block.number,
            publishedAt: block.timestamp
        });
        publishedCount += 1;
        lastSnapshotId = snapshotId;
        emit Published(snapshotId, epoch, blockNumber, liabilitiesRoot, liabilitiesNadi, liabilitiesUsdt, rewardsRoot, rewardsTotal);
    }

    /// @notice A snapshot's publication; `publishedBlock` is zero when it was never published.
    function publication(uint256 snapshotId) external view returns (Publication memory) {
        return _publications[snapshotId];
    }

    function isPublished(uint256 snapshotId) external view returns (bool) {
        return _publications[snapshotId].publishedBlock != 0;
    }
}
