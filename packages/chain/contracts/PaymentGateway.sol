// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title Payment gateway
/// @notice Users pay an off-chain order by approving a token and calling `pay` (or `payAndBurn`, which
/// burns the tokens instead of keeping them). The server credits the order when it sees the `Paid`
/// event, so each order id can be paid at most once on-chain.
contract PaymentGateway is Ownable {
    using SafeERC20 for IERC20;

    /// @notice Where `payAndBurn` sends tokens: an address nobody holds a key for, so they leave
    /// circulation for good (works for any ERC-20, including an already deployed NadiToken).
    address public constant BURN_ADDRESS = 0x000000000000000000000000000000000000dEaD;

    /// @notice Where payments go. The zero address means the gateway itself keeps them.
    address public treasury;
    mapping(address token => bool) public allowedTokens;
    mapping(bytes32 orderId => bool) public paidOrders;
    /// @notice Orders paid with `payAndBurn`: their tokens went to BURN_ADDRESS.
    mapping(bytes32 orderId => bool) public burnedOrders;

    event Paid(bytes32 indexed orderId, address indexed payer, address indexed token, uint256 amount);
    event TokenAllowed(address indexed token, bool allowed);
    event TreasuryChanged(address indexed treasury);

    error ZeroAmount();
    error TokenNotAllowed(address token);
    error OrderAlreadyPaid(bytes32 orderId);

    constructor(address treasury_) Ownable(msg.sender) {
        treasury = treasury_;
        emit TreasuryChanged(treasury_);
    }

    function pay(bytes32 orderId, address token, uint256 amount) external {
        _pay(orderId, token, amount, recipient());
    }

    /// @notice Pays the order like `pay`, but the tokens go to BURN_ADDRESS (destroy orders).
    function payAndBurn(bytes32 orderId, address token, uint256 amount) external {
        burnedOrders[orderId] = true;
        _pay(orderId, token, amount, BURN_ADDRESS);
    }

    function _pay(bytes32 orderId, address token, uint256 amount, address to) private {
        if (amount == 0) revert ZeroAmount();
        if (!allowedTokens[token]) revert TokenNotAllowed(token);
        if (paidOrders[orderId]) revert OrderAlreadyPaid(orderId);
        // Marked before the transfer so a re-entrant token cannot pay the same order twice.
        paidOrders[orderId] = true;
        IERC20(token).safeTransferFrom(msg.sender, to, amount);
        emit Paid(orderId, msg.sender, token, amount);
    }

    function setTokenAllowed(address token, bool allowed) external onlyOwner {
        allowedTokens[token] = allowed;
        emit TokenAllowed(token, allowed);
    }

    function setTreasury(address treasury_) external onlyOwner {
        treasury = treasury_;
        emit TreasuryChanged(treasury_);
    }

    /// @notice Moves payments the gateway kept (treasury unset) or tokens sent to it by mistake.
    function withdraw(address token, address to, uint256 amount) external onlyOwner {
        IERC20(token).safeTransfer(to, amount);
    }

    function recipient() public view returns (address) {
        return treasury == address(0) ? address(this) : treasury;
    }
}
