// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title NADI token
/// @notice Fixed-supply ERC-20: the whole supply is minted once to the deployer and no one can mint
/// more, so holders can rely on the supply never growing.
contract NadiToken is ERC20 {
    uint256 public constant TOTAL_SUPPLY = 1_000_000_000 * 10 ** 18;

    constructor() ERC20("NADI", "NADI") {
        _mint(msg.sender, TOTAL_SUPPLY);
    }
}
